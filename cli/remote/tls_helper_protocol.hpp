#pragma once
// What the executable and its TLS helper, tensorgate-tls, say to each other (tls_client.hpp).
// Both sides include this header; TG_TLS_ABI is the version and a digest of it
// (cli/remote/CMakeLists.txt), so a helper from another build refuses the call instead of
// misreading it.
//
//   tensorgate-tls ABI probe CA_FILE
//   tensorgate-tls ABI relay CA_FILE HOST CONNECT_HOST PORT IS_ADDRESS CONNECT_TIMEOUT_MS
//
// File descriptor 0 is a connected stream socket (the executable keeps the other end); an empty
// CA_FILE is none; IS_ADDRESS is 0 or 1 (Url::host_is_address). The helper's first line on the
// socket is its status, "ok" or "error " and one line for the user, at most kMaxStatusBytes.
// `probe` ends there: the trusted certificates (and CA_FILE) load. After "ok", `relay` carries
// bytes both ways between the socket and the TLS stream to HOST, until either side ends.
#include <cstddef>
#include <string_view>

namespace tensorgate::remote::tls_helper {

inline constexpr std::string_view kName = "tensorgate-tls";
inline constexpr std::string_view kProbe = "probe";
inline constexpr std::string_view kRelay = "relay";
inline constexpr std::string_view kOk = "ok";
inline constexpr std::string_view kErrorPrefix = "error ";
inline constexpr std::size_t kMaxStatusBytes = 4096;
// Arguments after the program name: ABI, mode, CA_FILE, then a relay's five.
inline constexpr int kProbeArgs = 3;
inline constexpr int kRelayArgs = 8;

}  // namespace tensorgate::remote::tls_helper
