// crc32.h: CRC-32 (IEEE 802.3: polynomial 0x04C11DB7, reflected, initial and final value
// 0xFFFFFFFF), the check a link's receiver computes over each unit it gets when link-level retry
// is on (credit_link.h). It detects every error of up to 3 bits in the unit sizes here (a flit
// of 132 bits, a packet of at most 9 x 128 bits), so a corrupted unit is never taken as good.
// Byte-wise with a 256-entry table built at compile time: only links with retry compute it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace hx {

namespace crc32_detail {
constexpr std::array<uint32_t, 256> make_table() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}
inline constexpr std::array<uint32_t, 256> kTable = make_table();
}  // namespace crc32_detail

/// A running CRC-32: feed values little-endian, byte by byte; value() is the checksum.
class Crc32 {
 public:
  template <class Int>
  Crc32& add(Int v) {
    auto u = static_cast<uint64_t>(v);
    for (std::size_t i = 0; i < sizeof(Int); ++i, u >>= 8)
      c_ = crc32_detail::kTable[(c_ ^ static_cast<uint32_t>(u)) & 0xFFu] ^ (c_ >> 8);
    return *this;
  }
  uint32_t value() const { return ~c_; }

 private:
  uint32_t c_ = 0xFFFFFFFFu;
};

}  // namespace hx
