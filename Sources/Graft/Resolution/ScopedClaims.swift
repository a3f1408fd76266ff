/// The `.scoped` slots of one scope whose instances are being created, each claimed under the
/// scope's lock (see `Scope+Claims.swift`).
///
/// A scope rarely creates more than a couple of its instances at once (one inside another), so
/// the first two claims live inline: claiming costs no allocation.
struct ScopedClaims: Sendable {
    /// One slot's creation under way.
    struct Pending: Sendable {
        let slot: Int
        /// Names the creation, with the scope as its issuer (see ``CreationID``).
        let serial: Int
        /// How many callers found the slot claimed and were sent to wait for it in the scope's
        /// coordinator: the creator tells the coordinator how the creation ended when any did.
        var joiners = 0
    }

    // Plain words in the claims themselves, so that claiming, reading and settling one copies
    // and destroys no reference: the provisional instances, which only services with
    // activation hooks have, are kept apart.
    private var first: Pending?
    private var second: Pending?
    /// `nil` until a third claim or a provisional instance needs it: two empty arrays still
    /// cost two release calls in every scope let go, a `nil` costs none.
    private var overflow: Overflow?

    /// What most scopes never need.
    private struct Overflow {
        var more: [Pending] = []
        /// The instances made before their activation hooks finish, by slot, for resolves on
        /// behalf of the same creation (services that inject each other through properties).
        var provisionals: [(slot: Int, cell: InstanceCell)] = []
    }

    /// Changes the overflow, made on first use; moved out and back, so its arrays are uniquely
    /// referenced while they change.
    private mutating func changeOverflow<Result>(_ change: (inout Overflow) -> Result) -> Result {
        var taken = overflow ?? Overflow()
        overflow = nil
        defer { overflow = taken }
        return change(&taken)
    }

    /// The serial of the next claim.
    private var nextSerial = 0

    /// The creation under way in `slot`, if any.
    @inline(__always)
    subscript(slot: Int) -> Pending? {
        if first?.slot == slot { return first }
        if second?.slot == slot { return second }
        return overflow?.more.first { $0.slot == slot }
    }

    /// Claims `slot`, which has no creation under way; returns the new claim.
    @inline(__always)
    mutating func claim(_ slot: Int) -> Pending {
        let pending = Pending(slot: slot, serial: nextSerial)
        nextSerial &+= 1
        if first == nil {
            first = pending
        } else if second == nil {
            second = pending
        } else {
            changeOverflow { $0.more.append(pending) }
        }
        return pending
    }

    /// Changes the creation under way in `slot`.
    mutating func update(_ slot: Int, _ change: (inout Pending) -> Void) {
        if var pending = first, pending.slot == slot {
            change(&pending)
            first = pending
        } else if var pending = second, pending.slot == slot {
            change(&pending)
            second = pending
        } else if let index = overflow?.more.firstIndex(where: { $0.slot == slot }) {
            changeOverflow { change(&$0.more[index]) }
        }
    }

    /// The instance of the creation under way in `slot` before its activation hooks finish.
    func provisional(_ slot: Int) -> InstanceCell? {
        overflow?.provisionals.first { $0.slot == slot }?.cell
    }

    /// Records the instance of the creation under way in `slot` before its activation hooks
    /// finish.
    mutating func setProvisional(_ cell: InstanceCell, slot: Int) {
        changeOverflow { overflow in
            if let index = overflow.provisionals.firstIndex(where: { $0.slot == slot }) {
                overflow.provisionals[index].cell = cell
            } else {
                overflow.provisionals.append((slot, cell))
            }
        }
    }

    /// Ends the creation under way in `slot`; returns it.
    @inline(__always)
    mutating func remove(_ slot: Int) -> Pending? {
        if overflow?.provisionals.isEmpty == false { changeOverflow { $0.provisionals.removeAll { $0.slot == slot } } }
        if first?.slot == slot {
            defer { first = nil }
            return first
        }
        if second?.slot == slot {
            defer { second = nil }
            return second
        }
        guard let index = overflow?.more.firstIndex(where: { $0.slot == slot }) else { return nil }
        return changeOverflow { $0.more.remove(at: index) }
    }
}
