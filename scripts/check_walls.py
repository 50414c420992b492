#!/usr/bin/env python3
"""The walls of the tree (docs/architecture.md, "Rooms and walls"), checked by CTest.

Fails when
- a room of core/src/ includes a private header of a room its row in the room table of
  docs/architecture.md does not name (the table is the data: the backticked room names of its
  last column), or a room has no row, or a row names no room of the tree;
- core/ includes a network, thread, file or logging header (the core is pure: its callers own
  sockets, threads, files and logs);
- a face includes another face: service/ includes nothing of cli/, and cli/ nothing of service/
  (`tensorgate serve` executes the service's own executable, tensorgate-serve);
- the CLI includes Asio or Beast outside cli/remote/ (its HTTP client: the rest of the CLI
  compiles no network templates);
- a source file grows past 500 lines (split it along its seam).

usage: check_walls.py [REPO]
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
MAX_LINES = 500
SOURCE = (".cpp", ".hpp", ".ipp", ".h", ".def", ".py", ".js", ".mjs", ".css", ".html", ".sh")
FORBIDDEN_IN_CORE = {
    "network": r"boost/asio|boost/beast|sys/socket\.h|netinet/|arpa/|netdb\.h|sys/epoll\.h|poll\.h|openssl/(ssl|bio|x509|tls)",
    "thread": r"<thread>|<mutex>|<shared_mutex>|<condition_variable>|<future>|<semaphore>|<latch>|<barrier>|<stop_token>|pthread\.h",
    "file": r"<fstream>|<filesystem>|<cstdio>|<stdio\.h>|fcntl\.h|unistd\.h|sys/stat\.h|dirent\.h",
    "logging": r"spdlog|<iostream>|syslog\.h",
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"][^>"]+[>"])', re.M)


def sources(top):
    # A tree without one of the tops (the walls' own test checks a copy of core/ alone) has none.
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        dirnames[:] = [d for d in dirnames if d not in ("build", "node_modules", ".git")]
        for f in filenames:
            if f.endswith(SOURCE):
                yield os.path.join(dirpath, f)


def rel(path):
    return os.path.relpath(path, root)


ROOM_ROW = re.compile(r"^\|\s*`core/src/([a-z0-9_]+)/`\s*\|.*\|([^|]*)\|\s*$", re.M)
ROOM_INCLUDE = re.compile(r'^\s*#\s*include\s*"([a-z0-9_]+)/', re.M)


def room_walls():
    """{room: rooms it may include} from the room table, and what is wrong with the table."""
    core_src = os.path.join(root, "core", "src")
    rooms = {d for d in os.listdir(core_src) if os.path.isdir(os.path.join(core_src, d))}
    table = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
    walls, found = {}, []
    for room, may_include in ROOM_ROW.findall(table):
        if room not in rooms:
            found.append(f"docs/architecture.md: the room table has a row for core/src/{room}/, which is no room of the tree")
            continue
        walls[room] = {name for name in re.findall(r"`([a-z0-9_]+)`", may_include) if name in rooms}
    for room in sorted(rooms - walls.keys()):
        found.append(f"core/src/{room}/: a room without a row in the room table of docs/architecture.md")
    return rooms, walls, found


problems = []
rooms, walls, table_problems = room_walls()
problems += table_problems
for room, allowed in sorted(walls.items()):
    for path in sources(os.path.join("core", "src", room)):
        for other in ROOM_INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
            if other in rooms and other != room and other not in allowed:
                problems.append(f"{rel(path)}: {room}/ includes {other}/, which its row of the room table does not name")
for path in sources("core"):
    text = open(path, encoding="utf-8", errors="replace").read()
    for inc in INCLUDE.findall(text):
        for kind, pattern in FORBIDDEN_IN_CORE.items():
            if re.search(pattern, inc):
                problems.append(f"{rel(path)}: core includes a {kind} header {inc}")

cli_dir = os.path.join(root, "cli")
cli_headers = {f for f in os.listdir(cli_dir) if f.endswith(".hpp")} if os.path.isdir(cli_dir) else set()
for path in sources("service"):
    for inc in INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
        if inc.strip('"<>') in cli_headers or "cli/" in inc:
            problems.append(f"{rel(path)}: the service includes the CLI's {inc}")
for path in sources("cli"):
    for inc in INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
        name = inc.strip('"<>')
        if name.startswith("tensorgate/service/"):
            problems.append(f"{rel(path)}: the CLI includes the service's {inc}")

for path in sources("cli"):
    if os.path.relpath(path, os.path.join(root, "cli")).startswith("remote" + os.sep):
        continue
    for inc in INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
        if re.search(r"boost/asio|boost/beast", inc):
            problems.append(f"{rel(path)}: the CLI includes {inc} outside cli/remote/")

for top in ("core", "net", "cli", "service", "fuzz", "tests", "bench", "scripts", "deploy"):
    for path in sources(top):
        with open(path, encoding="utf-8", errors="replace") as fh:
            n = sum(1 for _ in fh)
        if n > MAX_LINES:
            problems.append(f"{rel(path)}: {n} lines, more than {MAX_LINES}: split it along its seam")

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print("walls: every room includes only the rooms its row names, core is pure, the faces are apart,",
      "every source file is at most", MAX_LINES, "lines")
