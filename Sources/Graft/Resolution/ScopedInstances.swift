/// The shared instances one scope holds, by slot.
///
/// The first few live in the scope's own memory, so a request scope with a handful of scoped
/// services allocates nothing to hold them; any more go in a dictionary. Instances are only ever
/// added: a scope keeps each one until it closes.
struct ScopedInstances: Sendable {
    private var slots = (-1, -1, -1, -1)
    private var cells: (InstanceCell?, InstanceCell?, InstanceCell?, InstanceCell?)
    /// `nil` until a fifth slot is stored: an empty dictionary still costs its making and its
    /// release, in every scope made and let go.
    private var more: [Int: InstanceCell]?

    subscript(slot: Int) -> InstanceCell? {
        if slots.0 == slot { return cells.0 }
        if slots.1 == slot { return cells.1 }
        if slots.2 == slot { return cells.2 }
        if slots.3 == slot { return cells.3 }
        return more?[slot]
    }

    /// Stores `cell` in `slot`, replacing what the slot held.
    mutating func store(_ cell: InstanceCell, slot: Int) {
        if slots.0 == slot || slots.0 < 0 {
            (slots.0, cells.0) = (slot, cell)
        } else if slots.1 == slot || slots.1 < 0 {
            (slots.1, cells.1) = (slot, cell)
        } else if slots.2 == slot || slots.2 < 0 {
            (slots.2, cells.2) = (slot, cell)
        } else if slots.3 == slot || slots.3 < 0 {
            (slots.3, cells.3) = (slot, cell)
        } else {
            if more == nil { more = [:] }
            more?[slot] = cell
        }
    }
}
