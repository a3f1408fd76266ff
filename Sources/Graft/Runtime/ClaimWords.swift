import Synchronization

/// One atomic word per slot saying whether somebody is making the slot's object right now, and
/// how many wait for it: a slot is claimed with one compare-and-exchange, and given up with one
/// exchange, so making an object nobody else asks for takes no lock.
///
/// A word holds a generation (the upper half), a count of waiters and a claimed bit (the
/// lowest). Claiming sets the bit and keeps the generation; a waiter adds one to the count while
/// the bit is set; settling clears the bit and the count and moves to the next generation, so a
/// claim is named by its slot and generation alone, and a waiter that looked at an earlier claim
/// cannot count itself in to a later one.
///
/// The words are allocated on the first claim: most containers are built, and many of their
/// slots never claimed, so building one costs no memory for them.
final class ClaimWords: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `address` is only ever changed once, from zero, by a
    // compare-and-exchange that publishes fully initialized words (release) to readers that
    // load it with acquire ordering; the words are freed only in `deinit`, when nobody can use
    // them; every access to a word is atomic.
    private let address = Atomic<UInt>(0)
    private let count: Int

    /// What ``claim(_:)`` found.
    enum Attempt {
        /// The caller claimed the slot, in generation `generation`: it makes the object, then
        /// calls ``settle(_:)``.
        case claimed(generation: UInt)
        /// Somebody else holds the claim of generation `generation`; `word` is what the slot
        /// held, for ``join(_:seen:)``.
        case held(generation: UInt, word: UInt)
    }

    private static let claimedBit: UInt = 1
    private static let waiterUnit: UInt = 2
    private static let generationShift = UInt.bitWidth / 2
    /// How many waiters one word can count before its count would reach the generation.
    private static let waiterLimit = (1 << (generationShift - 1)) - 1

    init(count: Int) {
        self.count = count
    }

    deinit {
        if let words = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: address.load(ordering: .acquiring)) {
            words.deinitialize(count: max(count, 1))
            words.deallocate()
        }
    }

    /// Claims slot `index` unless somebody holds it already.
    func claim(_ index: Int) -> Attempt {
        let words = self.words
        var seen = words[index].load(ordering: .acquiring)
        while true {
            if seen & Self.claimedBit != 0 {
                return .held(generation: seen >> Self.generationShift, word: seen)
            }
            let (exchanged, current) = words[index].compareExchange(
                expected: seen,
                desired: seen | Self.claimedBit,
                ordering: .acquiringAndReleasing
            )
            if exchanged { return .claimed(generation: seen >> Self.generationShift) }
            seen = current
        }
    }

    /// Counts one more waiter of the claim the caller saw as `seen`; `false` when the slot
    /// changed since (the claim was settled, or another waiter counted itself in first), and
    /// the caller must look again.
    func join(_ index: Int, seen: UInt) -> Bool {
        let waiters = Int((seen & ((1 << Self.generationShift) - 1)) >> 1)
        guard waiters < Self.waiterLimit else { return false }
        return words[index].compareExchange(
            expected: seen,
            desired: seen + Self.waiterUnit,
            ordering: .acquiringAndReleasing
        ).exchanged
    }

    /// Ends the caller's claim of slot `index`; returns how many waiters counted themselves in.
    func settle(_ index: Int) -> Int {
        let words = self.words
        // Only the claim's holder settles it, and waiters only change the count, so the
        // generation read here is the claim's.
        let generation = words[index].load(ordering: .relaxed) >> Self.generationShift
        let settled = words[index].exchange(
            (generation &+ 1) &<< Self.generationShift,
            ordering: .acquiringAndReleasing
        )
        return Int((settled & ((1 << Self.generationShift) - 1)) >> 1)
    }

    /// The words, allocated by the first caller.
    private var words: UnsafeMutablePointer<Atomic<UInt>> {
        if let words = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: address.load(ordering: .acquiring)) {
            return words
        }
        let made = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: max(count, 1))
        for index in 0..<max(count, 1) {
            (made + index).initialize(to: Atomic(0))
        }
        let (exchanged, existing) = address.compareExchange(
            expected: 0,
            desired: UInt(bitPattern: made),
            ordering: .acquiringAndReleasing
        )
        if exchanged { return made }
        made.deinitialize(count: max(count, 1))
        made.deallocate()
        // `existing` is nonzero: the exchange failed only because another caller installed its words.
        return UnsafeMutablePointer(bitPattern: existing).unsafelyUnwrapped
    }
}
