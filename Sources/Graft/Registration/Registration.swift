/// One registration as the builder collected it: what it answers for and how to make it.
///
/// Registrations are immutable and shared: every container built from the same builder, and
/// every container made by `overriding`, points at the same ones.
///
/// A class, not a struct: builds walk the registrations several times, and copying a reference
/// costs one retain where copying the fields would cost one per field.
@usableFromInline
final class Registration: Sendable {
    let key: ServiceKey
    let lifetime: Lifetime
    /// How the instance is made, as validation and diagrams see it.
    let kind: FactoryKind
    /// How the instance is made, typed: a ``Maker`` of the key's type.
    let maker: any ServiceMaking
    /// The dependencies known before anything runs, in parameter order (autowired only).
    let dependencies: [Dependency]
    /// Hooks run on each new instance, in the order they were added.
    let activations: [Activation]
    /// Where the registration was made, for messages.
    let source: SourceLocation

    init(
        key: ServiceKey,
        lifetime: Lifetime,
        kind: FactoryKind,
        maker: any ServiceMaking,
        dependencies: [Dependency],
        activations: [Activation] = [],
        source: SourceLocation
    ) {
        self.key = key
        self.lifetime = lifetime
        self.kind = kind
        self.maker = maker
        self.dependencies = dependencies
        self.activations = activations
        self.source = source
    }

    /// This registration with `activation` added after its other hooks.
    func adding(_ activation: Activation) -> Registration {
        Registration(
            key: key,
            lifetime: lifetime,
            kind: kind,
            maker: maker,
            dependencies: dependencies,
            activations: activations + [activation],
            source: source
        )
    }
}

extension Registration {
    /// A registration of `Service`, whose maker builds instances as `construct` says.
    @usableFromInline
    convenience init<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        lifetime: Lifetime,
        kind: FactoryKind,
        construct: Maker<Service>.Construct,
        dependencies: [Dependency] = [],
        fileID: String,
        line: Int
    ) {
        self.init(
            key: ServiceKey(type, name: name),
            lifetime: lifetime,
            kind: kind,
            maker: Maker(construct),
            dependencies: dependencies,
            source: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// How a registration makes its instance, without the closures: what the graph checks need.
@usableFromInline
enum FactoryKind: Sendable {
    /// An existing object handed in; never created or disposed by Graft.
    case instance
    /// A closure that may resolve anything through the resolver it receives.
    case closure
    /// An `async` closure.
    case asyncClosure
    /// An initializer or function whose parameters are the declared dependencies.
    case autowired
    /// An `async` initializer or function whose parameters are the declared dependencies.
    case asyncAutowired
    /// Answers with another registration's instance (one instance serving several types).
    case alias(ServiceKey)

    var isInstance: Bool {
        if case .instance = self { return true }
        return false
    }

    var isAsync: Bool {
        switch self {
        case .asyncClosure, .asyncAutowired: true
        case .instance, .closure, .autowired, .alias: false
        }
    }
}

/// A hook that runs on each new instance: property injection, configuration.
@usableFromInline
struct Activation: Sendable {
    let run: @Sendable (inout any Sendable, any Resolver) throws -> Void
}

/// A place in the user's source code.
@usableFromInline
struct SourceLocation: Sendable, CustomStringConvertible {
    let fileID: String
    let line: Int

    @usableFromInline
    var description: String { "\(fileID):\(line)" }
}
