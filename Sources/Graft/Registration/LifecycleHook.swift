/// One start hook, stop hook or `run()` as the builder collected it: which service, what to do
/// with its instance, and where it was written.
///
/// A description only, like a ``Registration``: `build()` checks it against the graph and
/// orders it (see ``LifecyclePlan``), and the container runs it when it starts or shuts down.
struct LifecycleHook: Sendable {
    enum Kind: String, Sendable {
        case start = "start hook"
        case stop = "stop hook"
        case run = "run()"
    }

    let kind: Kind
    let key: ServiceKey
    /// Receives the service's instance, which the container resolved under ``key``.
    let body: @Sendable (any Sendable) async throws -> Void
    let source: SourceLocation

    init<Service: Sendable>(
        _ kind: Kind,
        _ type: Service.Type,
        name: String?,
        fileID: String,
        line: Int,
        body: @escaping @Sendable (Service) async throws -> Void
    ) {
        self.kind = kind
        self.key = ServiceKey(type, name: name)
        self.source = SourceLocation(fileID: fileID, line: Int32(clamping: line))
        let key = self.key
        self.body = { instance in
            // The container resolved `instance` under this hook's key, so it is a `Service`;
            // the check keeps a broken invariant a thrown error rather than a crash.
            guard let service = instance as? Service else {
                throw GraftError(.typeMismatch, "the instance of \(key) is not a \(Service.self)", service: "\(key)")
            }
            try await body(service)
        }
    }
}
