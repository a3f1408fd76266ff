#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Collects registrations; `build()` freezes them into a validated ``Container``.
///
/// A builder is a plain value: describing services creates nothing and scans nothing, so
/// registering thousands of services costs microseconds each.
///
/// ```swift
/// var builder = ContainerBuilder()
/// builder.register(Engine.self, lifetime: .singleton) { _ in RCEngine() }
/// builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:))
/// let container = try builder.build()
/// ```
public struct ContainerBuilder: Sendable {
    var registrations: [Registration] = []
    var requirements: [ModuleRequirement] = []
    /// Mistakes found while registering (an alias to nothing); reported by `build()`.
    var problems: [GraftError] = []
    /// Decorators, in the order they were added; linking adds each to the registrations it
    /// applies to.
    var decorators: [Decorator] = []
    /// Set while overriding: a registration replaces every earlier one of the same type and name.
    var replacesExisting = false
    /// Told of what the built container makes and disposes (see `addObserver(_:)`).
    var observers: [any ContainerObserver] = []
    /// Start hooks, stop hooks and `run()`s, in the order they were added (see `Lifecycle/`).
    var lifecycleHooks: [LifecycleHook] = []
    /// Receives errors nobody else can: disposal failures while `withScope`'s body had already
    /// thrown its own error, and a scope closed with work whose completion step never ran
    /// (``GraftError/Code/notCompleted``). Writes them to standard error unless you set it.
    ///
    /// ```swift
    /// builder.unhandledErrorHandler = { error in logger.error("\(error)") }
    /// ```
    public var unhandledErrorHandler: @Sendable (GraftError) -> Void = ContainerBuilder.writeToStandardError

    /// Makes `build()` (and ``validate()-3o4z6``) report a registration that replaces an earlier one of
    /// the same type and name with another lifetime, which is easy to do by mistake. Off by
    /// default: last-wins is the rule. ``replacements`` lists every replacement either way.
    ///
    /// ```swift
    /// builder.rejectsLifetimeChangingReplacements = true
    /// ```
    public var rejectsLifetimeChangingReplacements = false

    /// An empty builder.
    public init() {}

    /// The number of registrations so far.
    public var count: Int { registrations.count }

    @usableFromInline
    mutating func add<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        lifetime: Lifetime,
        recipe: Recipe,
        dependencies: [DeclaredDependency] = [],
        fileID: String,
        line: Int
    ) {
        if replacesExisting {
            let key = ServiceKey(type, name: name)
            registrations.removeAll { $0.key == key }
        }
        // Made in place in the array: a registration made first and then appended is copied,
        // a retain and release of each of its fields, 30,000 times at a large app's start.
        registrations.append(
            Registration(
                type,
                name: name,
                lifetime: lifetime.kind,
                scopeTag: lifetime.tag,
                recipe: recipe,
                dependencies: dependencies,
                fileID: fileID,
                line: line
            )
        )
    }

    /// Registers a closure factory.
    ///
    /// The closure receives a ``Resolver`` for its dependencies. `build()` cannot see what the
    /// closure resolves unless you list it in `dependencies`; prefer the autowired
    /// `register(_:using:)` where an initializer will do, so the graph is checked ahead of time.
    ///
    /// ```swift
    /// builder.register(Engine.self, name: "v12", lifetime: .singleton) { _ in V12Engine() }
    /// builder.register(RaceCar.self, dependencies: [Requirement(Engine.self, name: "v12")]) { r in
    ///     RaceCar(engine: try r.resolve(Engine.self, name: "v12"))
    /// }
    /// ```
    ///
    /// An instance that is ``Disposable`` or ``AsyncDisposable`` is disposed by its owner. A
    /// concrete registered type decides that while registering; a protocol (`any ConnectionPool`)
    /// cannot tell, so each new instance of it is asked (the conformance lookup behind it is
    /// cached per implementation type).
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for; often a protocol.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance.
    @inlinable
    public mutating func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        addClosureFactory(type, name, lifetime, dependencies, fileID, line, factory)
    }

    /// Registers an `async` closure factory, for services that need `await` to start.
    ///
    /// As for the synchronous form, list in `dependencies` what the closure resolves, so that
    /// `build()` checks it (a missing one, a cycle, a captive one) before anything runs.
    ///
    /// ```swift
    /// builder.register(Database.self, lifetime: .singleton, dependencies: [Requirement(DatabaseSettings.self)]) {
    ///     r async throws in try await Database.connect(r.resolve(DatabaseSettings.self))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance, awaiting what it needs.
    public mutating func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) {
        addAsyncClosureFactory(type, name, lifetime, dependencies, fileID, line, .plain, factory)
    }

    @usableFromInline
    mutating func addClosure<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ dependencies: [Requirement],
        _ fileID: String,
        _ line: Int,
        _ recipe: Recipe
    ) {
        add(
            type,
            name: name,
            lifetime: lifetime,
            recipe: recipe,
            dependencies: dependencies.map { DeclaredDependency(key: $0.key) },
            fileID: fileID,
            line: line
        )
    }

    /// Registers an object that already exists: a "system singleton" passed in, not reached for.
    ///
    /// Graft hands it out as is and never disposes it.
    ///
    /// ```swift
    /// builder.register(RadioFrequency.self, instance: RadioFrequency(megahertz: 433))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - instance: The object every resolve returns.
    public mutating func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        instance: Service
    ) {
        addInstance(type, name, fileID, line, instance)
    }

    /// Lets a registration answer for another type too, with the same instance.
    ///
    /// One `RCEngine` singleton can serve as `Engine` and as `Diagnosable`:
    ///
    /// ```swift
    /// builder.register(RCEngine.self, lifetime: .singleton) { _ in RCEngine() }
    /// builder.alias(Engine.self, to: RCEngine.self)
    /// builder.alias(Diagnosable.self, to: RCEngine.self)
    /// ```
    ///
    /// The alias follows the target's lifetime. Resolving it when the target's instance is not
    /// an `Alias` throws ``GraftError/Code/invalidAlias``.
    ///
    /// - Parameters:
    ///   - alias: The extra type to answer for.
    ///   - name: The alias's own name.
    ///   - target: The registered type whose instance answers.
    ///   - targetName: The target registration's name.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    public mutating func alias<Alias: Sendable, Target: Sendable>(
        _ alias: Alias.Type,
        name: String? = nil,
        to target: Target.Type,
        targetName: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        let targetKey = ServiceKey(target, name: targetName)
        let recipe = Recipe(.alias) { construction in
            let value = try construction.next(Target.self)
            guard let converted = value as? Alias else {
                throw GraftError(
                    .invalidAlias,
                    "\(ServiceKey(alias)) answers with \(targetKey), but its instance, a \(type(of: value)), "
                        + "is not a \(ServiceKey(alias).typeName)",
                    service: ServiceKey(alias).description,
                    hints: ["alias only types the target's instances conform to"]
                )
            }
            try construction.deliver(converted)
        }
        add(
            alias,
            name: name,
            lifetime: .transient,
            recipe: recipe,
            dependencies: [DeclaredDependency(key: targetKey)],
            fileID: fileID,
            line: line
        )
    }

    /// Adds a hook that runs on every new instance of the latest registration of `type` and
    /// `name`: property (setter) injection for objects whose initializer you cannot change.
    ///
    /// The hook runs after construction and before the top-level resolve returns. Within that
    /// resolve, services that refer to each other see each other, which is how a cycle through
    /// property injection closes.
    ///
    /// ```swift
    /// builder.register(RaceTrack.self, lifetime: .singleton) { _ in RaceTrack() }
    /// builder.onActivation(RaceTrack.self) { track, r in track.car = try r.resolve(RaceCar.self) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The registration's name.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - hook: Receives the instance (`inout`, so value types can be changed too) and a resolver.
    public mutating func onActivation<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ hook: @escaping @Sendable (inout Service, any Resolver) throws -> Void
    ) {
        addHook(
            to: ServiceKey(type, name: name),
            "onActivation",
            "hook",
            fileID,
            line,
            Activation { value, resolver in
                guard var service = value as? Service else { return }
                try hook(&service, resolver)
                value = service
            }
        )
    }

    /// Adds `hook` to the latest registration of `key`, or records that there is none yet.
    mutating func addHook(
        to key: ServiceKey,
        _ method: String,
        _ hookName: String,
        _ fileID: String,
        _ line: Int,
        _ hook: Activation
    ) {
        guard let index = registrations.lastIndex(where: { $0.key == key }) else {
            problems.append(
                GraftError(
                    .notRegistered,
                    "\(method) for \(key.subject), which is not registered before it",
                    service: key.description,
                    hints: ["register \(key.typeName) first, then add the \(hookName) (\(fileID):\(line))"]
                )
            )
            return
        }
        registrations[index].add(hook)
    }

    /// Adds a module's registrations and records what it requires.
    ///
    /// - Parameter module: The module to install.
    public mutating func install(_ module: some Module) {
        let name = String(describing: type(of: module))
        requirements += module.requirements.map { ModuleRequirement(key: $0.key, module: name) }
        module.register(in: &self)
    }

    @Sendable
    static func writeToStandardError(_ error: GraftError) {
        var text = "\(error)\n"
        text.withUTF8 { bytes in
            // File descriptor 2 is standard error; a failed write has nowhere better to go.
            _ = write(2, bytes.baseAddress, bytes.count)
        }
    }
}
