/// An injected factory that takes runtime arguments: each `make(…)` creates the service from
/// the values you pass plus the dependencies the graph supplies.
///
/// The convenience constructor `raceCarWithPitRadioFrequency:` of <doc:SeedsTour> is one: a
/// value known only at the call site, and everything else from the graph. Register the service
/// with the argument types it takes, and ask for `Factory<Service, Argument…>` wherever it is
/// needed, so the object never sees the container:
///
/// ```swift
/// builder.register(PitStop.self, arguments: Lap.self, using: PitStop.init(lap:crew:tyres:))
///
/// final class RaceStrategy: Sendable {
///     let pitStops: Factory<PitStop, Lap>
///     init(pitStops: Factory<PitStop, Lap>) { self.pitStops = pitStops }
///
///     func boxBox(on lap: Lap) throws -> PitStop { try pitStops.make(lap) }
/// }
/// ```
///
/// `build()` checks that the argument types match the registration's, in order. A `Factory`
/// holds its container weakly, so it never keeps the container alive.
public struct Factory<Service: Sendable, each Argument: Sendable>: Sendable {
    private let link: DeferredLink

    init(_ link: DeferredLink) {
        self.link = link
    }

    /// Creates the service from `arguments` and the graph.
    ///
    /// - Parameter arguments: The runtime arguments, in the order the registration declares them.
    /// - Returns: A new instance.
    /// - Throws: ``GraftError`` when the factory behind it throws or the container is gone.
    public func make(_ arguments: repeat each Argument) throws(GraftError) -> Service {
        try link.resolve(Service.self, arguments: RuntimeArguments(repeat each arguments))
    }

    /// Creates the service from `arguments` and the graph, awaiting what needs it.
    ///
    /// - Parameter arguments: The runtime arguments, in the order the registration declares them.
    /// - Returns: A new instance.
    /// - Throws: ``GraftError`` when the factory behind it throws or the container is gone.
    public func make(_ arguments: repeat each Argument) async throws(GraftError) -> Service {
        try await link.resolveAsync(Service.self, arguments: RuntimeArguments(repeat each arguments))
    }
}

extension Factory: DeferredForm {
    static var dependency: Dependency {
        var arguments: [ServiceKey] = []
        for argument in repeat (each Argument).self {
            arguments.append(ServiceKey(argument))
        }
        return Dependency(
            key: ServiceKey(Service.self),
            kind: .deferred,
            factoryArguments: arguments
        )
    }
}
