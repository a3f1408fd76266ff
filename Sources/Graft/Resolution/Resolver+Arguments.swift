/// Resolving with runtime arguments: values known only at the call site.
extension Resolver {
    /// Creates the service registered for `type` and `name` from `arguments` plus the
    /// dependencies the graph supplies.
    ///
    /// ```swift
    /// builder.register(PitStop.self, arguments: Lap.self, using: PitStop.init(lap:crew:tyres:))
    /// let stop = try container.resolve(PitStop.self, arguments: Lap(12))
    /// ```
    ///
    /// Objects that need such a service inject ``Factory`` instead, so they never see the
    /// container.
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name; `nil` for the unnamed one.
    ///   - first: The first runtime argument.
    ///   - more: The others, in the order the registration declares them.
    /// - Returns: A new instance.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/runtimeArguments`` when the arguments'
    ///   types are not the registration's, and as `resolve(_:name:)` does otherwise.
    public func resolve<Service: Sendable, First: Sendable, each More: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        arguments first: First,
        _ more: repeat each More
    ) throws(GraftError) -> Service {
        let (start, state) = try resolutionStart(for: ServiceKey(type, name: name))
        let arguments = RuntimeArguments(first, repeat each more)
        return try ParentLink.inOwner(of: type, name: name, startingAt: start, from: state) {
            (container, started) throws(GraftError) in
            try arguments.make(
                try RuntimeArguments.entry(for: type, name: name, in: container),
                by: container,
                &started
            )
        }
    }

    /// Creates the service from `arguments` and the graph, awaiting what needs it.
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name; `nil` for the unnamed one.
    ///   - first: The first runtime argument.
    ///   - more: The others, in the order the registration declares them.
    /// - Returns: A new instance.
    /// - Throws: ``GraftError`` as the synchronous form does.
    public func resolve<Service: Sendable, First: Sendable, each More: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        arguments first: First,
        _ more: repeat each More
    ) async throws(GraftError) -> Service {
        let (start, state) = try resolutionStart(for: ServiceKey(type, name: name))
        let arguments = RuntimeArguments(first, repeat each more)
        return try await ParentLink.inOwner(of: type, name: name, startingAt: start, from: state) {
            (container, started) async throws(GraftError) in
            try await arguments.makeAsync(
                try RuntimeArguments.entry(for: type, name: name, in: container),
                by: container,
                &started
            )
        }
    }

    /// The engine and the resolve state a resolve through this resolver starts from.
    private func resolutionStart(for key: ServiceKey) throws(GraftError) -> (ContainerCore, ResolveState) {
        guard let start = (self as? any EngineResolver)?.resolutionStart else {
            throw GraftError(
                .runtimeArguments,
                "cannot pass runtime arguments to \(key.subject) through a \(Swift.type(of: self))",
                service: key.description,
                hints: ["resolve with arguments from a Container, a Scope or the resolver a factory receives"]
            )
        }
        return start
    }
}
