/// The storage of a table of positions: `2^bits` slots in one manually managed buffer.
///
/// The tables of the searches are read and written at every node, where an array would pay
/// for exclusivity and uniqueness checks. This holds the buffer, its mask and its lifetime
/// once for all of them; each table keeps its own slot layout and its own hash.
struct SlotBuffer<Slot>: ~Copyable {
  private let slots: UnsafeMutablePointer<Slot>
  /// The buffer holds `2^bits` slots.
  let bits: Int
  /// `2^bits - 1`: turns a hash into the index of a slot.
  let mask: Int

  /// A buffer of `2^bits` slots, each `empty`.
  init(bits: Int, empty: Slot) {
    self.bits = bits
    mask = (1 << bits) - 1
    slots = .allocate(capacity: 1 << bits)
    slots.initialize(repeating: empty, count: 1 << bits)
  }

  deinit {
    slots.deinitialize(count: mask + 1)
    slots.deallocate()
  }

  subscript(index: Int) -> Slot {
    @inline(__always) get { slots[index] }
    @inline(__always) nonmutating set { slots[index] = newValue }
  }
}
