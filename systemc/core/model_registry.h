// model_registry.h: the one mechanism by which the simulator finds the Verilated models a build
// contains. Every parameterisation of an RTL top (a board plane of a size, VC and lane count; a
// switch's reduction unit of a table size) is its own Verilated model, fixed at Verilation. CMake
// generates one table per RTL top from its list of variants (rtl/CMakeLists.txt:
// HX_BOARD_SIZES, HX_REDUCTION_ENTRIES): a variant's description and a factory that wraps its
// model behind the simulator's interface for that top (PlaneModel, ReductionBank). Adding a
// variant is a one-word change to the list; a variant not in it comes from the model cache
// (model_cache.h).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hx {

/// Variants of one RTL top: `Variant` describes one, `Model` is the interface its wrapper
/// implements, `Args` what the factory takes besides the variant.
template <class Variant, class Model, class... Args>
class ModelRegistry {
 public:
  using Factory = std::unique_ptr<Model> (*)(const Variant&, Args...);
  struct Entry {
    Variant variant;
    Factory make;
    bool traced;  ///< its model has waveform code (kHasFstTrace)
  };

  explicit ModelRegistry(std::vector<Entry> entries) : entries_(std::move(entries)) {
    for (const Entry& e : entries_) variants_.push_back(e.variant);
  }

  /// Every built variant, in the order of the build's list.
  const std::vector<Variant>& variants() const { return variants_; }

  /// The first built variant for which match(variant) holds, or nullptr.
  template <class Match>
  const Variant* find(Match&& match) const {
    for (const Variant& v : variants_)
      if (match(v)) return &v;
    return nullptr;
  }

  /// A new model of the first built variant for which match(variant) holds and that has
  /// waveform code if `traced`, or nullptr when none does (the caller then takes the model from
  /// the model cache, model_cache.h, which builds a traced one on demand).
  template <class Match>
  std::unique_ptr<Model> make(Match&& match, bool traced, Args... args) const {
    for (const Entry& e : entries_)
      if (match(e.variant) && (e.traced || !traced)) return e.make(e.variant, std::forward<Args>(args)...);
    return nullptr;
  }

 private:
  std::vector<Entry> entries_;
  std::vector<Variant> variants_;
};

}  // namespace hx
