/// A frozen map from a type's identity to its winning entry, tuned for the one lookup at the
/// top of every resolve.
///
/// Type identities are metadata addresses, already unique and well spread once their low bits
/// (alignment) are dropped, so a multiplicative hash into an open-addressed table, probed
/// linearly, finds an entry in a few instructions; `Dictionary` would run SipHash instead.
@usableFromInline
struct TypeTable: Sendable {
    @usableFromInline let keys: [UInt]
    /// Unmanaged, so a lookup hands out the entry without touching its reference count: the
    /// table's `entries` array keeps every entry alive for as long as the table lives, and
    /// threads resolving at once would otherwise contend on the count's cache line.
    @usableFromInline let values: [Unmanaged<Entry>?]
    @usableFromInline let mask: Int

    init(_ entries: some Collection<(ObjectIdentifier, Entry)>) {
        var capacity = 8
        while capacity < entries.count * 2 { capacity *= 2 }
        var keys = [UInt](repeating: 0, count: capacity)
        var values = [Unmanaged<Entry>?](repeating: nil, count: capacity)
        let mask = capacity - 1
        for (id, entry) in entries {
            let key = UInt(bitPattern: id)
            var slot = Self.slot(for: key, mask: mask)
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = key
            values[slot] = Unmanaged.passUnretained(entry)
        }
        self.keys = keys
        self.values = values
        self.mask = mask
    }

    @inlinable
    static func slot(for key: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key >> 4) &* 0x9E37_79B9_7F4A_7C15 >> 20) & mask
    }

    @inlinable
    subscript(id: ObjectIdentifier) -> Unmanaged<Entry>? {
        let key = UInt(bitPattern: id)
        var slot = Self.slot(for: key, mask: mask)
        while true {
            let candidate = keys[slot]
            if candidate == key { return values[slot] }
            if candidate == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }
}
