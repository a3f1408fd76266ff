/// One registration as the builder collected it: what it answers for and how to make it.
///
/// Registrations are immutable and shared: every container built from the same builder, and
/// every container made by `overriding`, points at the same ones.
struct Registration: Sendable {
    let key: ServiceKey
    let lifetime: Lifetime
    let factory: Factory
    /// The dependencies known before anything runs, in parameter order (autowired only).
    let dependencies: [Dependency]
    /// Hooks run on each new instance, in the order they were added.
    var activations: [Activation] = []
    /// Where the registration was made, for messages.
    let source: SourceLocation
}

/// How a registration makes its instance.
enum Factory: Sendable {
    /// An existing object handed in; never created or disposed by Graft.
    case instance(any Sendable)
    /// A closure that may resolve anything through the resolver it receives.
    case closure(@Sendable (any Resolver) throws -> any Sendable)
    /// An `async` closure.
    case asyncClosure(@Sendable (any Resolver) async throws -> any Sendable)
    /// An initializer or function whose parameters are the declared dependencies.
    case autowired(@Sendable (inout Arguments) throws -> any Sendable)
    /// An `async` initializer or function whose parameters are the declared dependencies.
    case asyncAutowired(@Sendable (inout Arguments) async throws -> any Sendable)
    /// Answers with another registration's instance (one instance serving several types);
    /// `fits` tells whether that instance is of the alias's type.
    case alias(ServiceKey, fits: @Sendable (any Sendable) -> Bool)

    var isAsync: Bool {
        switch self {
        case .asyncClosure, .asyncAutowired: true
        case .instance, .closure, .autowired, .alias: false
        }
    }
}

/// A hook that runs on each new instance: property injection, configuration.
struct Activation: Sendable {
    let run: @Sendable (inout any Sendable, any Resolver) throws -> Void
}

/// A place in the user's source code.
struct SourceLocation: Sendable, CustomStringConvertible {
    let fileID: String
    let line: Int

    var description: String { "\(fileID):\(line)" }
}
