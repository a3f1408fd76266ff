import Configuration
import Graft
import GraftConfiguration

/// How deep the settings go: three levels of nesting, every supported kind of value.
enum Gear: Int, CaseIterable, Sendable {
    case first = 1
    case second, third
}

struct Leaf: KeyValueInitializable, Sendable {
    var value = 0.0
    var ratio: Float = 0
    static let injectableKeys: InjectableKeys<Leaf> = [.required("value", \.value), .optional("ratio", \.ratio)]
}

struct Middle: KeyValueInitializable, Sendable {
    var depth: UInt = 0
    var flag: Bool?
    var leaf = Leaf()
    static let injectableKeys: InjectableKeys<Middle> = [
        .optional("depth", \.depth),
        .optional("flag", \.flag),
        .nested("leaf", \.leaf, required: false),
    ]
}

struct Outer: KeyValueInitializable, Sendable {
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

/// libFuzzer's entry point: the same bytes go in as a JSON document and as configuration values.
///
/// Every rejection must be a `GraftError`: the JSON path's typed `throws(GraftError)` makes that a
/// compile-time fact, and the configuration path reports problems as `GraftError` values. A crash,
/// a leak (LeakSanitizer) or a hang (libFuzzer's `-timeout`) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))

    do {
        let outer = try Outer(injectingJSON: bytes)
        _ = outer.name.count + outer.tags.count
    } catch {
        _ = error.description
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
        _ = try builder.build().resolve(Outer.self)
    } catch {
        _ = error.description
    }
    return 0
}
