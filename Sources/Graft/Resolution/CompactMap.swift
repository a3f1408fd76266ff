/// A map for the few entries a scope or a creation coordinator holds at once: one array of
/// pairs searched in order, which costs one allocation and no hashing; past
/// ``CompactMap/limit`` entries it becomes a dictionary, so a scope holding many instances
/// still finds each one in constant time. Setting `nil` removes.
struct CompactMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// How many entries the array holds before the map turns into a dictionary.
    static var limit: Int { 16 }

    private var pairs: [(key: Key, value: Value)] = []
    private var dictionary: [Key: Value]?

    var isEmpty: Bool { dictionary?.isEmpty ?? pairs.isEmpty }

    /// The values, in no particular order.
    var values: [Value] {
        if let dictionary { return Array(dictionary.values) }
        return pairs.map(\.value)
    }

    subscript(key: Key) -> Value? {
        get {
            if let dictionary { return dictionary[key] }
            for pair in pairs where pair.key == key { return pair.value }
            return nil
        }
        set {
            if dictionary != nil {
                dictionary?[key] = newValue
                return
            }
            if let index = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    pairs[index].value = newValue
                } else {
                    pairs.swapAt(index, pairs.count - 1)
                    pairs.removeLast()
                }
            } else if let newValue {
                guard pairs.count < Self.limit else {
                    var grown = Dictionary(uniqueKeysWithValues: pairs.map { ($0.key, $0.value) })
                    grown[key] = newValue
                    dictionary = grown
                    pairs = []
                    return
                }
                pairs.append((key, newValue))
            }
        }
    }
}
