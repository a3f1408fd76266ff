/// For every autowired parameter of a table, the entry that answers it when it is a plain
/// dependency (not a `Lazy`, a `Provider` or an optional), in one flat buffer.
///
/// Following such a parameter then reads one word: no array is copied and no reference count
/// changes hands, so threads resolving the same graph at once do not fight over the cache
/// lines of shared entries, arrays and keys.
final class PlainTargets: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the buffer is allocated in `init` and filled by `link`,
    // both before the table that owns this object is shared, and only read afterwards, until
    // `deinit` frees it. The entries it points at are `Sendable`, and the same table keeps
    // them alive.
    private let buffer: UnsafeMutablePointer<Unmanaged<Entry>?>
    private let capacity: Int

    /// Room for `capacity` parameters, none linked yet.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        buffer = .allocate(capacity: self.capacity)
        buffer.initialize(repeating: nil, count: self.capacity)
    }

    deinit {
        buffer.deinitialize(count: capacity)
        buffer.deallocate()
    }

    /// Where the parameters starting at `offset` are, as ``Entry/plainTargetsAddress`` keeps it.
    func address(at offset: Int) -> UInt {
        UInt(bitPattern: buffer + offset)
    }

    /// Links each parameter of `entries` that a plain dependency answers; entry `i`'s
    /// parameters start at `offsets[i]`. Called once, by the table that made this buffer,
    /// before the table is shared.
    func link(_ entries: [Entry], offsets: [Int]) {
        for (entry, offset) in zip(entries, offsets) {
            for (index, dependency) in entry.dependencies.enumerated() where dependency.kind == .direct {
                let link = entry.links[index]
                if link >= 0 { buffer[offset + index] = Unmanaged.passUnretained(entries[link]) }
            }
        }
    }
}
