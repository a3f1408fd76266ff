/// Which registration answers for each key, and every registration of each type: the lookups
/// linking needs, made in one pass over the registrations.
///
/// Type identities are metadata addresses, already unique, so unnamed keys go into an
/// open-addressed table probed linearly with a multiplicative hash (``OpenAddressedTable``): no
/// SipHash, and no dictionary per type. Only named keys, usually few, use a `Dictionary`.
struct ServiceIndex: Sendable {
    /// Per distinct type, in order of first registration: its unnamed winner and its group.
    struct TypeRecord: Sendable {
        /// The last unnamed registration of the type, or `-1`.
        var unnamedWinner: Int32 = -1
        /// Where the type's registrations start in ``grouped``.
        var groupStart: Int32 = 0
        var count: Int32 = 0
    }

    private(set) var types: [TypeRecord] = []
    /// Registration indexes grouped by type, each group in registration order.
    private(set) var grouped: [Int32] = []
    /// The last registration of each named key.
    private(set) var named: [ServiceKey: Int32] = [:]
    private let slots: OpenAddressedTable

    init(registrations: [Registration]) {
        var slots = OpenAddressedTable(capacityFor: registrations.count)
        var typeOf = [Int32](repeating: 0, count: registrations.count)
        for index in registrations.indices {
            // The type and name read in place: a whole key would be made and copied per registration.
            let id = ObjectIdentifier(registrations[index].serviceType)
            let type = slots.findOrInsert(UInt(bitPattern: id), next: Int32(types.count))
            if type == types.count { types.append(TypeRecord()) }
            typeOf[index] = type
            types[Int(type)].count += 1
            if let name = registrations[index].name {
                named[ServiceKey(registrations[index].serviceType, name: name)] = Int32(index)
            } else {
                types[Int(type)].unnamedWinner = Int32(index)
            }
        }
        var start: Int32 = 0
        for type in types.indices {
            types[type].groupStart = start
            start += types[type].count
        }
        var fill = types.map(\.groupStart)
        grouped = [Int32](repeating: 0, count: registrations.count)
        for (index, type) in typeOf.enumerated() {
            grouped[Int(fill[Int(type)])] = Int32(index)
            fill[Int(type)] += 1
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
        guard let type = slots.find(UInt(bitPattern: id)) else { return nil }
        let winner = types[Int(type)].unnamedWinner
        return winner < 0 ? nil : Int(winner)
    }

    /// Every registration of the type `id`, named or not, in registration order.
    func group(ofType id: ObjectIdentifier) -> ArraySlice<Int32> {
        guard let type = slots.find(UInt(bitPattern: id)) else { return [] }
        let record = types[Int(type)]
        return grouped[Int(record.groupStart)..<Int(record.groupStart + record.count)]
    }
}

/// A map from nonzero words to small integers, open-addressed and probed linearly.
struct OpenAddressedTable: Sendable {
    private var keys: [UInt]
    private var values: [Int32]
    private let mask: Int

    init(capacityFor count: Int) {
        var capacity = 8
        while capacity < count * 2 { capacity *= 2 }
        keys = [UInt](repeating: 0, count: capacity)
        values = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
    }

    private func slot(for key: UInt) -> Int {
        Int(truncatingIfNeeded: (key >> 4) &* 0x9E37_79B9_7F4A_7C15 >> 20) & mask
    }

    /// The value for `key`, inserting `next` when the key is new.
    mutating func findOrInsert(_ key: UInt, next: Int32) -> Int32 {
        var slot = slot(for: key)
        while keys[slot] != 0 {
            if keys[slot] == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        values[slot] = next
        return next
    }

    func find(_ key: UInt) -> Int32? {
        var slot = slot(for: key)
        while keys[slot] != 0 {
            if keys[slot] == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
