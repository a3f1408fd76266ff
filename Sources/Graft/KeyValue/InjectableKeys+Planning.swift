/// Checking values against the declared keys: every problem is collected before anything is set.
extension InjectableKeys {
    /// One value for one full dotted key, after nested dictionaries have been unfolded.
    private struct Entry {
        let key: String
        let value: any Sendable
        /// The top-level key the value was given under.
        let source: String
    }

    /// Checks every value and returns the assignments to make, in key order, or throws one
    /// error listing every problem.
    func plan(_ values: [String: any Sendable]) throws(GraftError) -> [KeyAssignment<Root>] {
        let rootType = KeyValueInjection.typeName(Root.self)
        var declarationProblems = duplicateNames.map { GraftError.repeatedDeclaredKey($0, in: rootType) }

        var entries: [Entry] = []
        var keyedProblems: [(key: String, problem: GraftError)] = []
        var givenKeys: Set<String> = []
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            unfold(key, value, source: key, into: &entries, given: &givenKeys, problems: &keyedProblems)
        }
        // A group given something other than its keys is reported once, not once per missing key.
        let mismatchedGroups = keyedProblems.map { "\($0.key)." }

        var assignments: [KeyAssignment<Root>] = []
        let entriesByKey = Dictionary(grouping: entries, by: \.key)
        for key in entriesByKey.keys.sorted() {
            let entriesForKey = entriesByKey[key] ?? []
            guard entriesForKey.count == 1, let entry = entriesForKey.first else {
                let sources = entriesForKey.map(\.source)
                keyedProblems.append((key, .repeatedInjectedKey(key, in: rootType, sources: sources)))
                continue
            }
            guard let index = slotsByName[key] else {
                keyedProblems.append((key, .unknownInjectedKey(key, in: rootType, declared: names)))
                continue
            }
            switch slots[index].prepare(entry.value) {
            case .success(let assignment):
                assignments.append(assignment)
            case .failure(let failure):
                keyedProblems.append((key, .injectedTypeMismatch(key, in: rootType, failure: failure)))
            }
        }

        for slot in slots where slot.isRequired && !givenKeys.contains(slot.name) {
            if mismatchedGroups.contains(where: slot.name.hasPrefix) {
                continue
            }
            let unusedGroup = slot.optionalGroups.first { group in
                !givenKeys.contains { $0 == group || $0.hasPrefix("\(group).") }
            }
            if unusedGroup == nil {
                declarationProblems.append(
                    .missingInjectedKey(
                        slot.name,
                        valueType: slot.valueType,
                        in: rootType,
                        group: slot.optionalGroups.last
                    )
                )
            }
        }

        let problems = declarationProblems + keyedProblems.sorted { $0.key < $1.key }.map(\.problem)
        guard problems.isEmpty else {
            throw .keyValueInjection(into: rootType, problems: problems)
        }
        return assignments
    }

    /// Adds the value for `key` to `entries`, unfolding a dictionary given for a nested group
    /// (or any prefix of a dotted key) into one entry per dotted key.
    private func unfold(
        _ key: String,
        _ value: any Sendable,
        source: String,
        into entries: inout [Entry],
        given: inout Set<String>,
        problems: inout [(key: String, problem: GraftError)]
    ) {
        given.insert(key)
        guard slotsByName[key] == nil, nestedPrefixes.contains(key) else {
            entries.append(Entry(key: key, value: value, source: source))
            return
        }
        guard let nested = value as? [String: any Sendable] else {
            let problem = GraftError.injectedGroupMismatch(
                key,
                in: KeyValueInjection.typeName(Root.self),
                childType: groupsByName[key].map { groups[$0].childType },
                got: KeyValueInjection.describedType(of: value),
                example: names.first { $0.hasPrefix("\(key).") }
            )
            problems.append((key, problem))
            return
        }
        for (childKey, childValue) in nested.sorted(by: { $0.key < $1.key }) {
            unfold("\(key).\(childKey)", childValue, source: source, into: &entries, given: &given, problems: &problems)
        }
    }
}
