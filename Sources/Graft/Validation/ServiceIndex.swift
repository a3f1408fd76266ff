/// Which registration answers for each key, and every registration of each type: the lookups
/// linking needs, made in one pass over the registrations.
///
/// Type identities are metadata addresses, already unique, so unnamed keys go into an
/// open-addressed table probed linearly with a multiplicative hash (``OpenAddressedTable``): no
/// SipHash, and no dictionary per type. Only named keys, usually few, use a `Dictionary`.
///
/// Most types have one registration, unnamed: the table holds that registration's index
/// itself, and only the other types get a ``TypeRecord`` and a group in ``grouped``. A record
/// and a group entry for each of 30,000 lone types would cost 16 bytes a registration.
struct ServiceIndex: Sendable {
    /// Per type registered more than once or under a name: its unnamed winner and its group.
    struct TypeRecord: Sendable {
        /// The last unnamed registration of the type, or `-1`.
        var unnamedWinner: Int32 = -1
        /// Where the type's registrations start in ``grouped``.
        var groupStart: Int32 = 0
        var count: Int32 = 0
    }

    private(set) var types: [TypeRecord] = []
    /// The registration indexes of the types with a record, grouped by type, each group in
    /// registration order.
    private(set) var grouped: [Int32] = []
    /// The last registration of each named key.
    private(set) var named: [ServiceKey: Int32] = [:]
    /// Per type, its lone registration's index (`0` or more), or `-1 - n` for record `n`.
    private let slots: OpenAddressedTable

    init(registrations: [Registration]) {
        var slots = OpenAddressedTable(capacityFor: registrations.count)
        // Each registration's record, or `-1` while its type has only that one registration.
        var recordOf = [Int32](repeating: -1, count: registrations.count)
        for index in registrations.indices {
            // The type and name read in place: a whole key would be made and copied per registration.
            let type = registrations[index].serviceType
            let name = registrations[index].name
            let key = UInt(bitPattern: ObjectIdentifier(type))
            let (slot, isTaken) = slots.position(of: key)
            var value: Int32
            if isTaken {
                value = slots.value(at: slot)
            } else if name == nil {
                slots.insert(key, Int32(index), at: slot)
                continue
            } else {
                value = -1 - Int32(types.count)
                types.append(TypeRecord())
                slots.insert(key, value, at: slot)
            }
            if value >= 0 {
                // The type's second registration: its lone one moves into a new record.
                recordOf[Int(value)] = Int32(types.count)
                types.append(TypeRecord(unnamedWinner: value, count: 1))
                value = -Int32(types.count)
                slots.insert(key, value, at: slot)
            }
            let record = Int(-1 - value)
            recordOf[index] = Int32(record)
            types[record].count += 1
            if let name {
                named[ServiceKey(type, name: name)] = Int32(index)
            } else {
                types[record].unnamedWinner = Int32(index)
            }
        }
        var start: Int32 = 0
        for type in types.indices {
            types[type].groupStart = start
            start += types[type].count
        }
        var fill = types.map(\.groupStart)
        grouped = [Int32](repeating: 0, count: Int(start))
        for (index, record) in recordOf.enumerated() where record >= 0 {
            grouped[Int(fill[Int(record)])] = Int32(index)
            fill[Int(record)] += 1
        }
        self.slots = slots
    }

    /// The registration that answers for `key`: the last one registered under it.
    func winner(for key: ServiceKey) -> Int? {
        guard key.name == nil else { return named[key].map(Int.init) }
        return unnamedWinner(for: key.id)
    }

    /// The last unnamed registration of the type `id`.
    func unnamedWinner(for id: ObjectIdentifier) -> Int? {
        guard let value = slots.find(UInt(bitPattern: id)) else { return nil }
        guard value < 0 else { return Int(value) }
        let winner = types[Int(-1 - value)].unnamedWinner
        return winner < 0 ? nil : Int(winner)
    }

    /// Every registration of the type `id`, named or not, in registration order.
    func group(ofType id: ObjectIdentifier) -> Group {
        guard let value = slots.find(UInt(bitPattern: id)) else { return Group(lone: -1, members: []) }
        guard value < 0 else { return Group(lone: value, members: []) }
        let record = types[Int(-1 - value)]
        return Group(lone: -1, members: grouped[Int(record.groupStart)..<Int(record.groupStart + record.count)])
    }

    /// The registrations of one type, in registration order: a lone one, or a group.
    struct Group: RandomAccessCollection {
        /// The type's one registration, or `-1` when ``members`` has them.
        let lone: Int32
        let members: ArraySlice<Int32>

        var startIndex: Int { 0 }
        var endIndex: Int { lone >= 0 ? 1 : members.count }

        subscript(position: Int) -> Int32 {
            lone >= 0 ? lone : members[members.startIndex + position]
        }
    }
}

/// A map from nonzero words to small integers, open-addressed and probed linearly.
///
/// A table of 30,000 types holds at most two thirds of its slots, 18 bytes a key: a size
/// rounded up to a power of two, at most half full, would take 26. A hash is mapped onto the
/// slots by multiplying, so any size will do.
struct OpenAddressedTable: Sendable {
    private var keys: [UInt]
    private var values: [Int32]

    init(capacityFor count: Int) {
        // Small tables keep the room they had: a few more bytes, and resolving one of a few
        // services by type finds its slot at the first probe.
        let capacity = max(16, count + count / 2)
        keys = [UInt](repeating: 0, count: capacity)
        values = [Int32](repeating: 0, count: capacity)
    }

    private func slot(for key: UInt) -> Int {
        // The high bits of the hash, scaled to the table's size.
        let hash = UInt64(truncatingIfNeeded: key >> 4) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(keys.count)).high)
    }

    /// The slot holding `key` (`isTaken`), or the empty slot where it goes.
    func position(of key: UInt) -> (slot: Int, isTaken: Bool) {
        var slot = slot(for: key)
        while keys[slot] != 0 {
            if keys[slot] == key { return (slot, true) }
            slot += 1
            if slot == keys.count { slot = 0 }
        }
        return (slot, false)
    }

    func value(at slot: Int) -> Int32 { values[slot] }

    /// Stores `value` for `key` at `slot`, which ``position(of:)`` gave for it.
    mutating func insert(_ key: UInt, _ value: Int32, at slot: Int) {
        keys[slot] = key
        values[slot] = value
    }

    func find(_ key: UInt) -> Int32? {
        let (slot, isTaken) = position(of: key)
        return isTaken ? values[slot] : nil
    }
}
