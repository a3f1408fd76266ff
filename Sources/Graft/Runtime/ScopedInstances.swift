/// The shared instances one scope holds, by slot.
///
/// The first few live in the scope's own memory, so a request scope with a handful of scoped
/// services allocates nothing to hold them; any more go in a dictionary. Instances are only ever
/// added: a scope keeps each one until it closes, when ``moveAll(into:)`` or a swap hands them
/// over.
///
/// Held as plain words, not as references the compiler manages: every scope made is destroyed,
/// and its state with it, most often after its close emptied it. Five managed references cost
/// five release calls then, empty or not (about 100 instructions a scope); this value's
/// `deinit` looks at five words. Non-copyable, so that the words cannot be duplicated.
///
/// The invariant, written once here: **each non-`nil` word in `objects` and `overflow` is one
/// retain this value owns**, released exactly once: when its slot is stored again, by
/// ``moveAll(into:)``, or in `deinit`.
struct ScopedInstances: ~Copyable {
    private var slots = (-1, -1, -1, -1)
    private var objects: (Unmanaged<AnyObject>?, Unmanaged<AnyObject>?, Unmanaged<AnyObject>?, Unmanaged<AnyObject>?) =
        (nil, nil, nil, nil)
    /// `nil` until a fifth slot is stored.
    private var overflow: Unmanaged<Overflow>?

    /// The instances beyond the first four.
    private final class Overflow {
        var cells: [Int: InstanceCell] = [:]
    }

    init() {}

    /// The instance in `slot`, if any (+1: the caller holds its own reference).
    ///
    /// Inlined into the scope's lock, where every scoped resolve looks its slot up: as a call of
    /// its own it cost as much as its four comparisons.
    @inline(__always)
    subscript(slot: Int) -> InstanceCell? {
        if slots.0 == slot { return Self.cell(objects.0) }
        if slots.1 == slot { return Self.cell(objects.1) }
        if slots.2 == slot { return Self.cell(objects.2) }
        if slots.3 == slot { return Self.cell(objects.3) }
        guard let overflow else { return nil }
        return overflow._withUnsafeGuaranteedRef { $0.cells[slot] }
    }

    /// Stores `cell` in `slot`, replacing what the slot held.
    ///
    /// `cell` is consumed: the reference the caller hands over becomes the slot's, so storing
    /// a cell the caller made for it costs no retain and release of its own. Inlined into the
    /// creation that settles the slot, its one caller on a scoped creation's path.
    @inline(__always)
    mutating func store(_ cell: consuming InstanceCell, slot: Int) {
        if slots.0 == slot || slots.0 < 0 {
            slots.0 = slot
            Self.replace(&objects.0, with: cell)
        } else if slots.1 == slot || slots.1 < 0 {
            slots.1 = slot
            Self.replace(&objects.1, with: cell)
        } else if slots.2 == slot || slots.2 < 0 {
            slots.2 = slot
            Self.replace(&objects.2, with: cell)
        } else if slots.3 == slot || slots.3 < 0 {
            slots.3 = slot
            Self.replace(&objects.3, with: cell)
        } else {
            if overflow == nil { overflow = .passRetained(Overflow()) }
            overflow.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.cells[slot] = cell }
        }
    }

    /// Hands every instance to `cells` and leaves this value empty.
    mutating func moveAll(into cells: inout [InstanceCell]) {
        for index in 0..<4 {
            let word: Unmanaged<AnyObject>?
            switch index {
            case 0: (word, objects.0) = (objects.0, nil)
            case 1: (word, objects.1) = (objects.1, nil)
            case 2: (word, objects.2) = (objects.2, nil)
            default: (word, objects.3) = (objects.3, nil)
            }
            // The retain this value owned becomes the array's.
            if let word { cells.append(InstanceCell(object: word.takeRetainedValue())) }
        }
        slots = (-1, -1, -1, -1)
        if let overflow {
            cells += overflow.takeRetainedValue().cells.values
            self.overflow = nil
        }
    }

    private static func cell(_ word: Unmanaged<AnyObject>?) -> InstanceCell? {
        word.map { InstanceCell(object: $0.takeUnretainedValue()) }
    }

    private static func replace(_ word: inout Unmanaged<AnyObject>?, with cell: consuming InstanceCell) {
        let old = word
        word = .passRetained(cell.object)
        old?.release()
    }

    deinit {
        objects.0?.release()
        objects.1?.release()
        objects.2?.release()
        objects.3?.release()
        overflow?.release()
    }
}
