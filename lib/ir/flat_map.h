// An insert-only open-addressing hash map: one allocation for the whole table, no per-entry
// nodes to allocate or free. Built for the million-node paths (names, value maps, lint), where
// std::unordered_map spent more time in malloc and free than in hashing.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace fxc::ir {

template <typename Key, typename Value, typename Hash = std::hash<Key>>
class FlatMap {
 public:
  FlatMap() = default;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void reserve(size_t count) {
    if (count * 2 > slots_.size()) rehash(count * 2);
  }

  template <typename K>
  Value* find(const K& key) {
    if (slots_.empty()) return nullptr;
    size_t hash = Hash{}(key);
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (!slot.used) return nullptr;
      if (slot.hash == hash && slot.key == key) return &slot.value;
    }
  }
  template <typename K>
  const Value* find(const K& key) const {
    return const_cast<FlatMap*>(this)->find(key);
  }
  template <typename K>
  size_t count(const K& key) const {
    return find(key) != nullptr ? 1 : 0;
  }
  // The value of a key known to be present.
  template <typename K>
  Value& at(const K& key) {
    Value* value = find(key);
    if (!value) throw std::out_of_range("FlatMap::at: missing key");
    return *value;
  }

  // Inserts (key, value) unless the key is present. Returns the stored value and whether it
  // was inserted. The pointer is valid until the next insertion.
  std::pair<Value*, bool> emplace(Key key, Value value) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 16 : slots_.size() * 2);
    size_t hash = Hash{}(key);
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (!slot.used) {
        slot.key = std::move(key);
        slot.value = std::move(value);
        slot.hash = hash;
        slot.used = true;
        ++size_;
        return {&slot.value, true};
      }
      if (slot.hash == hash && slot.key == key) return {&slot.value, false};
    }
  }
  Value& operator[](Key key) { return *emplace(std::move(key), Value{}).first; }

  template <typename F>
  void forEach(F&& fn) const {
    for (const Slot& slot : slots_) {
      if (slot.used) fn(slot.key, slot.value);
    }
  }

 private:
  struct Slot {
    Key key{};
    Value value{};
    size_t hash = 0;  // compared before the key: most probes end there
    bool used = false;
  };

  void rehash(size_t wanted) {
    size_t capacity = 16;
    while (capacity < wanted) capacity *= 2;
    std::vector<Slot> old = std::move(slots_);
    slots_ = std::vector<Slot>(capacity);
    mask_ = capacity - 1;
    size_ = 0;
    for (Slot& slot : old) {
      if (slot.used) emplace(std::move(slot.key), std::move(slot.value));
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace fxc::ir
