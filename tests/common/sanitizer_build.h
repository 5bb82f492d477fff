#pragma once

namespace tunedeck::test {

// True in the AddressSanitizer build of the test suite (scripts/sanitize). There the sanitizer's
// shadow memory, quarantine and checks change what memory and CPU figures mean: it reserves
// terabytes of address space, keeps freed blocks for a while and slows every access. Tests keep
// asserting behaviour there and leave out bounds on resident memory, address space and speed.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif

}  // namespace tunedeck::test
