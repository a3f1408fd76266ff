/// One row of elements per node, for a graph where most nodes have none: a node costs the 4
/// bytes of its row number, not the 8 of an (empty) array, and only nonempty rows are stored.
///
/// Read and written like an array of arrays: `rows[node]`, `rows[node] = row`.
struct SparseRows<Element: Sendable>: Sendable {
    /// Per node, its row in ``rows``, or `-1` for an empty one.
    private var rowOf: [Int32] = []
    private var rows: [[Element]] = []

    /// The number of nodes.
    var count: Int { rowOf.count }

    /// Makes room for `count` nodes.
    mutating func reserveCapacity(_ count: Int) {
        rowOf.reserveCapacity(count)
    }

    /// Adds a node with `row`.
    mutating func append(_ row: [Element]) {
        guard !row.isEmpty else {
            rowOf.append(-1)
            return
        }
        rowOf.append(Int32(rows.count))
        rows.append(row)
    }

    /// Whether `node`'s row is empty. Cheaper than reading the row, which copies an array
    /// reference: passes over every node skip most of them with it.
    func isEmpty(_ node: Int) -> Bool {
        rowOf[node] < 0
    }

    /// The row of `node`.
    subscript(node: Int) -> [Element] {
        get {
            let row = rowOf[node]
            return row < 0 ? [] : rows[Int(row)]
        }
        set {
            let row = rowOf[node]
            if row >= 0 {
                rows[Int(row)] = newValue
            } else if !newValue.isEmpty {
                rowOf[node] = Int32(rows.count)
                rows.append(newValue)
            }
        }
    }
}
