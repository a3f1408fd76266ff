/// The errors keyed-value injection reports. Each summary names the type and the key; the
/// hints say what would help.
extension GraftError {
    /// One error for every problem found while checking the values for `rootType`.
    static func keyValueInjection(into rootType: String, problems: [GraftError]) -> GraftError {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return GraftError(
            problems.first?.code ?? .typeMismatch,
            "cannot inject \(rootType): \(count)",
            service: rootType,
            problems: problems
        )
    }

    static func missingInjectedKey(_ key: String, valueType: String, in rootType: String, group: String?) -> GraftError
    {
        let hint =
            if let group {
                "add \"\(key)\" to the injected values: it is required once any \"\(group).\" key is given"
            } else {
                "add \"\(key)\" to the injected values"
            }
        return GraftError(
            .missingKey,
            "\(rootType) is missing required key \"\(key)\" (\(valueType))",
            service: rootType,
            hints: [hint]
        )
    }

    static func unknownInjectedKey(_ key: String, in rootType: String, declared: [String]) -> GraftError {
        let hint: String
        if let suggestion = KeyValueInjection.nearestKey(to: key, among: declared) {
            hint = "did you mean \"\(suggestion)\"?"
        } else if declared.isEmpty {
            hint = "\(rootType) declares no injectable keys; list them in its injectableKeys"
        } else {
            let shown = declared.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ")
            hint = "injectable keys: \(shown)\(declared.count > 12 ? ", …" : "")"
        }
        return GraftError(.unknownKey, "\(rootType) has no injectable key \"\(key)\"", service: rootType, hints: [hint])
    }

    static func injectedTypeMismatch(_ key: String, in rootType: String, failure: ConversionFailure) -> GraftError {
        let summary = "\(rootType).\(key) expects \(failure.expected), got \(failure.got)"
        switch failure.reason {
        case .wrongType:
            return GraftError(
                .typeMismatch,
                summary,
                service: rootType,
                hints: ["pass a value of type \(failure.expected) for \"\(key)\""]
            )
        case .inexactNumber:
            return GraftError(
                .typeMismatch,
                "\(summary) that does not convert exactly",
                service: rootType,
                hints: ["pass a number that \(failure.expected) holds exactly for \"\(key)\""]
            )
        case .notARawValue(let validValues):
            let hint =
                if let validValues {
                    "valid values: \(validValues.joined(separator: ", "))"
                } else {
                    "pass a \(failure.expected) or one of its raw values for \"\(key)\""
                }
            return GraftError(
                .typeMismatch,
                "\(summary) that is not one of its raw values",
                service: rootType,
                hints: [hint]
            )
        }
    }

    static func injectedGroupMismatch(
        _ key: String,
        in rootType: String,
        childType: String?,
        got: String,
        example: String?
    ) -> GraftError {
        let keys = example.map { "set nested keys such as \"\($0)\"" } ?? "set its nested keys"
        let expected = childType.map { "the keys of \($0)" } ?? "nested keys"
        return GraftError(
            .typeMismatch,
            "\(rootType).\(key) expects \(expected), got \(got)",
            service: rootType,
            hints: ["\(keys), or pass a [String: any Sendable] dictionary for \"\(key)\""]
        )
    }

    static func repeatedInjectedKey(_ key: String, in rootType: String, sources: [String]) -> GraftError {
        let forms = sources.map { $0 == key ? "as \"\(key)\"" : "inside \"\($0)\"" }
        return GraftError(
            .typeMismatch,
            "\(rootType) is given key \"\(key)\" \(sources.count) times",
            service: rootType,
            hints: ["pass it once; it is given \(forms.joined(separator: " and "))"]
        )
    }

    static func repeatedDeclaredKey(_ key: String, in rootType: String) -> GraftError {
        GraftError(
            .typeMismatch,
            "\(rootType) declares injectable key \"\(key)\" more than once",
            service: rootType,
            hints: ["give each key in \(rootType).injectableKeys its own name"]
        )
    }
}

extension KeyValueInjection {
    /// The declared key a mistyped `key` most likely meant, or `nil` when none is close.
    ///
    /// A key whose last component matches (`"backgroundColor"` for `"view.backgroundColor"`)
    /// wins; otherwise the closest by edit distance (transpositions count once), ignoring case,
    /// within about a third of the key's length.
    static func nearestKey(to key: String, among declared: [String]) -> String? {
        let wanted = key.lowercased()
        let lastComponent = wanted.split(separator: ".").last.map(String.init) ?? wanted
        if let match = declared.first(where: {
            $0.lowercased().split(separator: ".").last.map(String.init) == lastComponent
        }) {
            return match
        }
        var best: (name: String, distance: Int)?
        for name in declared {
            let distance = Suggestions.editDistance(wanted, name.lowercased())
            let limit = max(1, min(3, name.count / 3))
            if distance <= limit && distance < (best?.distance ?? Int.max) {
                best = (name, distance)
            }
        }
        return best?.name
    }

    /// A type's name as a Swift programmer writes it: `String?`, `[Int]`, `[String: Double]`.
    static func typeName(_ type: Any.Type) -> String {
        prettyTypeName(String(describing: type))
    }

    /// Rewrites `Optional<X>`, `Array<X>` and `Dictionary<K, V>` in a type's description, at any depth.
    static func prettyTypeName(_ name: String) -> String {
        guard name.hasSuffix(">"), let open = name.firstIndex(of: "<") else {
            return name == "Any & Sendable" ? "any Sendable" : name
        }
        let base = String(name[..<open])
        let inner = name[name.index(after: open)..<name.index(before: name.endIndex)]
        let arguments = splitTopLevel(inner).map(prettyTypeName)
        switch (base, arguments.count) {
        case ("Optional", 1):
            let wrapped = arguments[0]
            return wrapped.contains(" ") ? "(\(wrapped))?" : "\(wrapped)?"
        case ("Array", 1):
            return "[\(arguments[0])]"
        case ("Dictionary", 2):
            return "[\(arguments[0]): \(arguments[1])]"
        default:
            return "\(base)<\(arguments.joined(separator: ", "))>"
        }
    }

    /// Splits generic arguments at the commas that are not inside nested angle brackets.
    private static func splitTopLevel(_ text: Substring) -> [String] {
        var parts: [String] = []
        var depth = 0
        var start = text.startIndex
        var previous: Character = " "
        for index in text.indices {
            switch text[index] {
            case "<", "(", "[": depth += 1
            case ">" where previous == "-": break
            case ">", ")", "]": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<index].trimmingSpaces())
                start = text.index(after: index)
            default: break
            }
            previous = text[index]
        }
        parts.append(text[start...].trimmingSpaces())
        return parts
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
