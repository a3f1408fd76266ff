import Configuration
import Graft
import GraftConfiguration

/// How deep the settings go: three levels of nesting, every supported kind of value.
enum Gear: Int, CaseIterable, Sendable {
    case first = 1
    case second, third
}

struct Leaf: KeyValueInitializable, Sendable, Equatable {
    var value = 0.0
    var ratio: Float = 0
    static let injectableKeys: InjectableKeys<Leaf> = [.required("value", \.value), .optional("ratio", \.ratio)]
}

struct Middle: KeyValueInitializable, Sendable, Equatable {
    var depth: UInt = 0
    var flag: Bool?
    var leaf = Leaf()
    static let injectableKeys: InjectableKeys<Middle> = [
        .optional("depth", \.depth),
        .optional("flag", \.flag),
        .nested("leaf", \.leaf, required: false),
    ]
}

struct Outer: KeyValueInitializable, Sendable, Equatable {
    var name = ""
    var count: Int8 = 0
    var gear = Gear.first
    var tags: [String] = []
    var weights: [String: Double] = [:]
    var middle = Middle()
    static let injectableKeys: InjectableKeys<Outer> = [
        .required("name", \.name),
        .optional("count", \.count),
        .optional("gear", \.gear),
        .optional("tags", \.tags),
        .optional("weights", \.weights),
        .nested("middle", \.middle),
    ]
}

/// The environment variables the configuration path reads, in the order input lines fill them.
private let variableNames = [
    "F_NAME", "F_COUNT", "F_GEAR", "F_TAGS", "F_MIDDLE_DEPTH", "F_MIDDLE_FLAG", "F_MIDDLE_LEAF_VALUE",
    "F_MIDDLE_LEAF_RATIO", "F_MIDDLE_LEAF_VALU", "F_NAMES",
]

/// Every key the settings declare, at any depth.
private let declaredKeys = [
    "name", "count", "gear", "tags", "weights", "middle", "depth", "flag", "leaf", "value", "ratio",
]

/// `text` as a JSON string literal.
private func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20:
            out +=
                "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// `outer` written back as the JSON that should read as it: the oracle's round trip.
private func json(of outer: Outer) -> String {
    let middle = outer.middle
    var middleMembers = [
        "\"depth\": \(middle.depth)",
        "\"leaf\": {\"value\": \(middle.leaf.value), \"ratio\": \(Double(middle.leaf.ratio))}",
    ]
    if let flag = middle.flag { middleMembers.append("\"flag\": \(flag)") }
    let weights = outer.weights.map { "\(jsonString($0.key)): \($0.value)" }.joined(separator: ", ")
    return """
        {"name": \(jsonString(outer.name)), "count": \(outer.count), "gear": \(outer.gear.rawValue), \
        "tags": [\(outer.tags.map(jsonString).joined(separator: ", "))], "weights": {\(weights)}, \
        "middle": {\(middleMembers.joined(separator: ", "))}}
        """
}

/// The keys of a JSON object's values, at any depth, whole ("middle.leaf") and alone ("leaf").
private func keys(of values: [String: any Sendable], under prefix: String = "") -> [String] {
    values.flatMap { key, value -> [String] in
        let path = prefix.isEmpty ? key : "\(prefix).\(key)"
        let nested = (value as? [String: any Sendable]).map { keys(of: $0, under: path) } ?? []
        return [key, path] + nested
    }
}

/// The errors no key can be named in: the text is not a JSON object at all.
private func isUnreadable(_ error: GraftError) -> Bool {
    error.summary.hasPrefix("cannot read JSON for Outer") || error.summary.hasPrefix("JSON for Outer must be an object")
}

/// The innermost problems an error lists (itself, when it lists none).
private func leaves(of error: GraftError) -> [GraftError] {
    error.problems.isEmpty ? [error] : error.problems.flatMap(leaves(of:))
}

/// The oracle for a rejection: each problem names a key, declared or given (`""` for an empty one).
private func expectNamesAKey(_ error: GraftError, given: [String], _ path: String) {
    for problem in leaves(of: error) {
        // Named as a key is named: quoted, or as a step of a dotted path ("Outer.middle.depth").
        let names = (declaredKeys + given).contains { key in
            !key.isEmpty
                && ["\"\(key)\"", ".\(key)", "\(key).", key.uppercased()].contains { problem.summary.contains($0) }
        }
        let namesEmptyKey = given.contains("") && problem.summary.contains("\"\"")
        if !names && !namesEmptyKey {
            fatalError("\(path): a rejection that names no key: \(problem.summary)\n\(error)")
        }
    }
}

/// The oracle for a value read: written back as JSON, it reads as the same value.
private func expectRoundTrip(_ outer: Outer, _ path: String) {
    // Configuration can give a number JSON cannot write ("nan", "inf"): no round trip for those.
    let numbers = [outer.middle.leaf.value, Double(outer.middle.leaf.ratio)] + outer.weights.values
    guard numbers.allSatisfy(\.isFinite) else { return }
    let text = json(of: outer)
    do {
        let again = try Outer(injectingJSON: Array(text.utf8))
        if again != outer { fatalError("\(path): \(outer) written as \(text) reads as \(again)") }
    } catch {
        fatalError("\(path): \(outer) written as \(text) does not read back: \(error)")
    }
}

/// libFuzzer's entry point: the same bytes go in as a JSON document and as configuration values.
///
/// Every rejection must be a `GraftError` naming the key it is about (the JSON path's typed
/// `throws(GraftError)` makes the type a compile-time fact; the oracle checks the key), and every
/// value read must round-trip: written back as JSON, it reads as the same value. A broken oracle
/// (`fatalError`), a crash, a leak (LeakSanitizer) or a hang (libFuzzer's `-timeout`) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))

    do {
        expectRoundTrip(try Outer(injectingJSON: bytes), "JSON")
    } catch {
        if !isUnreadable(error) {
            let given = (try? KeyValueInjection.values(fromJSON: bytes)).map { keys(of: $0) } ?? []
            expectNamesAKey(error, given: given, "JSON")
        }
    }

    let text = String(decoding: bytes, as: UTF8.self)
    var variables: [String: String] = [:]
    for (name, line) in zip(variableNames, text.split(separator: "\n", omittingEmptySubsequences: false)) {
        variables[name] = String(line)
    }
    var builder = ContainerBuilder()
    builder.registerSettings(
        Outer.self,
        from: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: variables)),
        prefix: "f",
        unknownKeysIn: [.environmentVariables(variables)]
    )
    do {
        expectRoundTrip(try builder.build().resolve(Outer.self), "configuration")
    } catch {
        expectNamesAKey(error, given: Array(variables.keys), "configuration")
    }
    return 0
}
