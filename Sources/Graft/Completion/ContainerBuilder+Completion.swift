extension ContainerBuilder {
    /// Gives the latest registration of `type` and `name` a completion step: each instance it
    /// makes in a scope runs `complete` when that scope's completion step runs, before the
    /// request's response is sent.
    ///
    /// Commit or flush here; release resources in `dispose()`. The step runs when the scope's
    /// owner calls ``Scope/complete()`` (GraftHummingbird and GraftVapor call it after the handler
    /// returns), newest instance first, each once; a closure that throws stops the step, and the
    /// failure is a ``GraftError`` with code ``GraftError/Code/completionFailed`` naming the
    /// service.
    ///
    /// ```swift
    /// builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:))
    /// builder.onComplete(UnitOfWork.self) { unitOfWork in try await unitOfWork.commit() }
    /// ```
    ///
    /// For `.scoped` and `.transient` services made in a scope: making an instance of `type`
    /// outside any scope (from the root container, or for a singleton) throws, because there is
    /// no scope whose step could complete it. Register `type` before calling this.
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - fileID: Where the step is added, for messages; leave the default.
    ///   - line: Where the step is added, for messages; leave the default.
    ///   - complete: Finishes one instance's work, awaiting what it needs.
    public mutating func onComplete<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ complete: @escaping @Sendable (Service) async throws -> Void
    ) {
        let step = CompletionStep.completing(Service.self, addedAt: "\(fileID):\(line)", complete)
        addHook(
            to: ServiceKey(type, name: name),
            "onComplete",
            "completion step",
            fileID,
            line,
            Activation(completion: step)
        )
    }

    /// Gives the latest registration of `type` and `name` the completion step of ``Completable``:
    /// each instance it makes in a scope runs its ``Completable/complete()`` when that scope's
    /// completion step runs.
    ///
    /// ```swift
    /// builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:))
    /// builder.onComplete(UnitOfWork.self)
    /// ```
    ///
    /// The rules are those of ``onComplete(_:name:fileID:line:_:)``.
    ///
    /// - Parameters:
    ///   - type: The registered type, which adopts ``Completable``.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - fileID: Where the step is added, for messages; leave the default.
    ///   - line: Where the step is added, for messages; leave the default.
    public mutating func onComplete<Service: Completable>(
        _ type: Service.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        onComplete(type, name: name, fileID: fileID, line: line) { instance in try await instance.complete() }
    }
}

extension CompletionStep {
    /// The step that runs `complete` on each instance of `Service`; by default, the instance's
    /// own ``Completable/complete()``.
    static func completing<Service: Sendable>(
        _ type: Service.Type,
        addedAt source: String,
        _ complete: @escaping @Sendable (Service) async throws -> Void
    ) -> CompletionStep {
        CompletionStep(
            complete: { instance in
                // The engine hands each step an instance of the registration it was added to.
                guard let service = instance as? Service else { return }
                try await complete(service)
            },
            source: source
        )
    }

    static func completing<Service: Completable>(_ type: Service.Type, addedAt source: String) -> CompletionStep {
        completing(type, addedAt: source) { instance in try await instance.complete() }
    }
}
