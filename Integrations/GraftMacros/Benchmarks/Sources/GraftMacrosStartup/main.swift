import GraftMacros

/// The one dependency every generated type has: a singleton.
final class Root: Sendable {
    init() {}
}

// `graft-macros-startup macro|hand|none`: registers the 1,000 @Injectable types, or the same
// 1,000 by hand, builds and resolves the last; `none` does the rest of the process alike.
let mode = CommandLine.arguments.dropFirst().first ?? "none"
var builder = ContainerBuilder()
builder.register(Root.self, lifetime: .singleton, using: Root.init)
switch mode {
case "macro":
    registerMacroTypes(&builder)
    let container = try builder.build()
    _ = try container.resolve(M0999.self)
case "hand":
    registerHandTypes(&builder)
    let container = try builder.build()
    _ = try container.resolve(H0999.self)
default:
    break
}
print("\(mode): \(builder.count) registrations")
