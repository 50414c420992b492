#!/usr/bin/env python3
"""The release executable's shape for a fast start (cli/CMakeLists.txt, docs/architecture.md "Build"):
a static PIE (no interpreter, nothing loaded at run time) entered at cli/prefault_entry.cpp, with
the code a small `check` runs in one section (cli/link/check_path.order) and the .bss it never
writes in another (cli/link/cold_bss.ld). Fails when the executable is linked dynamically again,
when its entry point is glibc's again, when either linker script is no longer applied, when the order file has gone empty, or when it has gone so stale
that the check's own functions are outside it (rerun scripts/gen_check_order.py)."""
import platform
import re
import subprocess
import sys

binary = sys.argv[1]
headers = subprocess.run(['readelf', '-hlW', binary], capture_output=True, text=True, check=True).stdout
if not re.search(r'Type:\s+DYN', headers):
    sys.exit(f'{binary} is not position-independent: the executable serves untrusted uploads')
if 'INTERP' in headers:
    sys.exit(f'{binary} has an interpreter: it is no longer a static PIE (cli/CMakeLists.txt)')
entry = int(re.search(r'Entry point address:\s+0x([0-9a-f]+)', headers)[1], 16)
sections = subprocess.run(['readelf', '-SW', binary], capture_output=True, text=True, check=True).stdout
match = re.search(r'\.text\.check_path\s+PROGBITS\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)', sections)
if not match:
    sys.exit(f'{binary} has no .text.check_path section: the check-path linker script was not applied')
start, size = int(match[1], 16), int(match[2], 16)
if size < 256 * 1024:
    sys.exit(f'.text.check_path holds {size} bytes, expected at least 256 KiB: is cli/link/check_path.order empty?')

# Functions every small safetensors check runs, from the command to the report.
expected = [
    'tensorgate::cli::run_check(',
    'tensorgate::cli::check_source(',
    'tensorgate::detail::SafetensorsValidator::feed(',
    'tensorgate::detail::scan_plain_header(',
    'tensorgate::JsonWriter::JsonWriter(',
]
symbols = subprocess.run(['nm', '-C', binary], capture_output=True, text=True, check=True).stdout.splitlines()
# On x86-64 the entry point is prefault_entry.cpp's, which runs before glibc's _start.
if platform.machine() == 'x86_64':
    tg_entry = [int(line.split()[0], 16) for line in symbols if line.endswith(' tg_entry')]
    if tg_entry != [entry]:
        sys.exit(f'the entry point {entry:#x} is not tg_entry {tg_entry}: cli/prefault_entry.cpp is not linked in')
    # The .bss start-up leaves unpopulated (cli/link/cold_bss.ld) holds what it names.
    cold = re.search(r'\.bss\.cold\s+NOBITS\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)', sections)
    if not cold:
        sys.exit(f'{binary} has no .bss.cold section: cli/link/cold_bss.ld was not applied')
    cold_start, cold_size = int(cold[1], 16), int(cold[2], 16)
    keys = [int(line.split()[0], 16) for line in symbols if line.endswith(' __pthread_keys')]
    if not keys or not cold_start <= keys[0] < cold_start + cold_size:
        sys.exit(f'glibc\'s __pthread_keys {keys} is not in .bss.cold ({cold_size} bytes at {cold_start:#x}): '
                 'its archive member moved (cli/link/cold_bss.ld)')
missing = []
for prefix in expected:
    addresses = [int(line.split(' ', 2)[0], 16) for line in symbols
                 if line.split(' ', 2)[-1].startswith(prefix) and not line.endswith('[clone .cold]')
                 and line.split(' ', 2)[1] in 'tT']
    if not addresses:
        sys.exit(f'no symbol {prefix}...: update this test with the check path')
    if not any(start <= a < start + size for a in addresses):
        missing.append(prefix)
if missing:
    sys.exit('outside .text.check_path (rerun scripts/gen_check_order.py): ' + ', '.join(missing))
print(f'a static PIE entered at tg_entry; .text.check_path: {size} bytes at {start:#x}; the {len(expected)} check-path functions are in it')
