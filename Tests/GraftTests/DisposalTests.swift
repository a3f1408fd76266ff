import Graft
import Testing

/// A singleton that holds a transient it received when created.
private final class Holder: Disposable {
    let resource: Resource
    let log: EventLog

    init(resource: Resource, log: EventLog) {
        self.resource = resource
        self.log = log
    }

    func dispose() throws {
        log.append("holder")
    }
}

private final class Drain: AsyncDisposable {
    let log: EventLog

    init(log: EventLog) {
        self.log = log
    }

    func dispose() async throws {
        await Task.yield()
        log.append("drain")
    }
}

private struct BodyFailed: Error, Equatable {
    let reason: String
}

@Suite struct DisposalTests {
    let log = EventLog()

    /// Registers `Resource` under each label with `lifetime`, failing to dispose those in `failing`.
    private func builder(
        _ labels: [String],
        lifetime: Lifetime = .scoped,
        failing: Set<String> = []
    ) -> ContainerBuilder {
        var builder = ContainerBuilder()
        for label in labels {
            builder.register(Resource.self, name: label, lifetime: lifetime) { [log] _ in
                Resource(label, log: log, failsToDispose: failing.contains(label))
            }
        }
        return builder
    }

    @Test(arguments: [Lifetime.transient, .scoped, .graph])
    func scopeDisposesWhatItCreatedNewestFirst(_ lifetime: Lifetime) throws {
        let container = try builder(["a", "b", "c"], lifetime: lifetime).build()
        let scope = container.makeScope()

        for label in ["b", "a", "c"] {
            _ = try scope.resolve(Resource.self, name: label)
        }
        try scope.close()

        #expect(log.entries == ["c", "a", "b"])
    }

    @Test func shutdownDisposesSingletonsNewestFirst() throws {
        let container = try builder(["a", "b", "c"], lifetime: .singleton).build()

        for label in ["c", "a", "b"] {
            _ = try container.resolve(Resource.self, name: label)
        }
        _ = try container.makeScope().resolve(Resource.self, name: "a")
        try container.shutdown()

        #expect(log.entries == ["b", "a", "c"])
    }

    @Test func eagerSingletonsAreDisposedAtShutdownInReverseCreationOrder() throws {
        let container = try builder(["a", "b"], lifetime: .eagerSingleton).build()

        try container.shutdown()

        #expect(log.entries == ["b", "a"])
    }

    @Test func secondCloseDoesNothing() throws {
        let container = try builder(["a"], failing: ["a"]).build()
        let scope = container.makeScope()
        _ = try scope.resolve(Resource.self, name: "a")

        let error = #expect(throws: GraftError.self) { try scope.close() }
        #expect(
            error?.description == """
                Graft: 1 disposal failed while closing the scope
                  every other instance was disposed
                  1. dispose() of Resource["a"] threw: a is jammed
                """
        )
        try scope.close()

        #expect(log.entries == ["a"])
        #expect(scope.isClosed)
    }

    @Test func secondShutdownDoesNothing() throws {
        let container = try builder(["a"], lifetime: .singleton).build()
        _ = try container.resolve(Resource.self, name: "a")

        try container.shutdown()
        try container.shutdown()

        #expect(log.entries == ["a"])
    }

    @Test func transientsAreDisposedByTheScopeThatCreatedThem() throws {
        let container = try builder(["root", "scope"], lifetime: .transient).build()
        let scope = container.makeScope()
        _ = try container.resolve(Resource.self, name: "root")
        _ = try scope.resolve(Resource.self, name: "scope")

        try scope.close()
        #expect(log.entries == ["scope"])

        try container.shutdown()
        #expect(log.entries == ["scope", "root"])
    }

    @Test func transientsCreatedForASingletonBelongToTheRoot() throws {
        var builder = builder(["part"], lifetime: .transient)
        builder.register(Holder.self, lifetime: .singleton) { [log] r in
            Holder(resource: try r.resolve(Resource.self, name: "part"), log: log)
        }
        let container = try builder.build()

        try container.withScope { scope in
            _ = try scope.resolve(Holder.self)
        }
        #expect(log.entries.isEmpty)

        try container.shutdown()
        #expect(log.entries == ["holder", "part"])
    }

    @Test func scopedAndSingletonInstancesAreDisposedByTheirOwners() throws {
        var builder = builder(["scoped"])
        builder.register(Resource.self, name: "singleton", lifetime: .singleton) { [log] _ in
            Resource("singleton", log: log)
        }
        let container = try builder.build()

        try container.withScope { scope in
            _ = try scope.resolve(Resource.self, name: "singleton")
            _ = try scope.resolve(Resource.self, name: "scoped")
        }
        #expect(log.entries == ["scoped"])

        try container.shutdown()
        #expect(log.entries == ["scoped", "singleton"])
    }

    @Test func weakInstancesAreNeverDisposed() throws {
        let container = try builder(["weak"], lifetime: .weak).build()
        let scope = container.makeScope()

        let resource = try scope.resolve(Resource.self, name: "weak")
        try scope.close()
        try container.shutdown()
        withExtendedLifetime(resource) {}

        #expect(log.entries.isEmpty)
    }

    @Test func failingDisposeDoesNotStopOthersAndCloseThrowsOneErrorListingEveryFailure() throws {
        let container = try builder(["a", "b", "c"], failing: ["a", "c"]).build()
        let scope = container.makeScope()
        for label in ["a", "b", "c"] {
            _ = try scope.resolve(Resource.self, name: label)
        }

        let error = #expect(throws: GraftError.self) { try scope.close() }

        #expect(log.entries == ["c", "b", "a"])
        #expect(error?.code == .disposalFailed)
        #expect(error?.problems.count == 2)
        #expect(error?.problems.compactMap { $0.underlyingError as? Jammed } == [Jammed(part: "c"), Jammed(part: "a")])
        #expect(
            error?.description == """
                Graft: 2 disposals failed while closing the scope
                  every other instance was disposed
                  1. dispose() of Resource["c"] threw: c is jammed
                  2. dispose() of Resource["a"] threw: a is jammed
                """
        )
    }

    @Test func shutdownThrowsOneErrorListingEveryFailure() throws {
        let container = try builder(["a", "b"], lifetime: .singleton, failing: ["a", "b"]).build()
        _ = try container.resolve(Resource.self, name: "a")
        _ = try container.resolve(Resource.self, name: "b")

        let error = #expect(throws: GraftError.self) { try container.shutdown() }

        #expect(log.entries == ["b", "a"])
        #expect(error?.description.hasPrefix("Graft: 2 disposals failed while closing the container") == true)
        #expect(error?.problems.map(\.service) == [#"Resource["b"]"#, #"Resource["a"]"#])
    }

    @Test func closingAParentClosesItsChildrenFirst() throws {
        let container = try builder(["parent", "child", "grandchild", "sibling"]).build()
        let parent = container.makeScope()
        let child = parent.makeScope()
        let grandchild = child.makeScope()
        _ = try parent.resolve(Resource.self, name: "parent")
        _ = try child.resolve(Resource.self, name: "child")
        _ = try grandchild.resolve(Resource.self, name: "grandchild")

        try parent.close()

        #expect(log.entries == ["grandchild", "child", "parent"])
        #expect(child.isClosed && grandchild.isClosed)
        let error = #expect(throws: GraftError.self) { try grandchild.resolve(Resource.self, name: "sibling") }
        #expect(error?.code == .closed)
    }

    @Test func closedChildIsNotClosedAgainByItsParent() throws {
        let container = try builder(["parent", "child"]).build()
        let parent = container.makeScope()
        let child = parent.makeScope()
        _ = try parent.resolve(Resource.self, name: "parent")
        _ = try child.resolve(Resource.self, name: "child")

        try child.close()
        try parent.close()

        #expect(log.entries == ["child", "parent"])
    }

    @Test func shutdownClosesOpenScopesFirst() throws {
        var builder = builder(["scope", "nested"])
        builder.register(Resource.self, name: "root", lifetime: .singleton) { [log] _ in Resource("root", log: log) }
        let container = try builder.build()
        _ = try container.resolve(Resource.self, name: "root")
        let scope = container.makeScope()
        let nested = scope.makeScope()
        _ = try scope.resolve(Resource.self, name: "scope")
        _ = try nested.resolve(Resource.self, name: "nested")

        try container.shutdown()

        #expect(log.entries == ["nested", "scope", "root"])
        #expect(scope.isClosed && nested.isClosed)
    }

    @Test func aScopeLetGoWithoutClosingIsDisposedWhenTheContainerShutsDown() throws {
        var builder = builder(["a", "b"])
        builder.register(Resource.self, name: "root", lifetime: .singleton) { [log] _ in Resource("root", log: log) }
        let container = try builder.build()
        _ = try container.resolve(Resource.self, name: "root")
        do {
            let scope = container.makeScope()
            _ = try scope.resolve(Resource.self, name: "a")
            _ = try scope.resolve(Resource.self, name: "b")
        }
        #expect(log.entries.isEmpty)

        try container.shutdown()

        #expect(log.entries == ["b", "a", "root"])
    }

    @Test func withScopeClosesTheScopeWhenTheBodyEnds() throws {
        let container = try builder(["a"]).build()

        let scope = try container.withScope { scope in
            _ = try scope.resolve(Resource.self, name: "a")
            #expect(!scope.isClosed)
            return scope
        }

        #expect(scope.isClosed)
        #expect(log.entries == ["a"])
    }

    @Test func withScopeThrowsDisposalFailuresWhenTheBodySucceeds() throws {
        let container = try builder(["a"], failing: ["a"]).build()

        let error = #expect(throws: GraftError.self) {
            try container.withScope { scope in _ = try scope.resolve(Resource.self, name: "a") }
        }

        #expect(error?.code == .disposalFailed)
    }

    @Test func withScopeRethrowsTheBodysErrorUnchangedAndReportsDisposalFailures() throws {
        let reported = Guarded([GraftError]())
        var builder = builder(["a", "b"], failing: ["a"])
        builder.unhandledErrorHandler = { error in reported.withLock { $0.append(error) } }
        let container = try builder.build()

        let error = #expect(throws: BodyFailed.self) {
            try container.withScope { scope in
                _ = try scope.resolve(Resource.self, name: "a")
                _ = try scope.resolve(Resource.self, name: "b")
                throw BodyFailed(reason: "flat tyre")
            }
        }

        #expect(error == BodyFailed(reason: "flat tyre"))
        #expect(log.entries == ["b", "a"])
        #expect(reported.current.map(\.code) == [.disposalFailed])
        #expect(reported.current.first?.description.contains(#"dispose() of Resource["a"] threw: a is jammed"#) == true)
    }

    @Test func withScopeRethrowsTheBodysGraftErrorUnchanged() throws {
        let reported = Guarded([GraftError]())
        var builder = builder(["a"])
        builder.unhandledErrorHandler = { error in reported.withLock { $0.append(error) } }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) {
            try container.withScope { scope in _ = try scope.resolve(Wheel.self) }
        }

        #expect(error?.code == .notRegistered)
        #expect(reported.current.isEmpty)
    }

    @Test func resolvingFromAClosedScopeThrowsClosed() throws {
        let container = try builder(["a"]).build()
        let scope = container.makeScope()
        try scope.close()

        let error = #expect(throws: GraftError.self) { try scope.resolve(Resource.self, name: "a") }

        #expect(error?.code == .closed)
        #expect(
            error?.description == """
                Graft: cannot resolve Resource (name: "a"): its scope was closed
                  resolve from an open scope: container.makeScope()
                """
        )
        let all = #expect(throws: GraftError.self) { try scope.resolveAll(Resource.self) }
        #expect(
            all?.description == """
                Graft: cannot resolve Resource: its scope was closed
                  resolve from an open scope: container.makeScope()
                """
        )
    }

    @Test(arguments: [Lifetime.transient, .singleton, .eagerSingleton, .scoped, .graph, .weak])
    func resolvingAfterShutdownThrowsClosed(_ lifetime: Lifetime) throws {
        let container = try builder(["a"], lifetime: lifetime).build()
        try container.shutdown()

        let error = #expect(throws: GraftError.self) { try container.resolve(Resource.self, name: "a") }

        #expect(error?.code == .closed)
        #expect(
            error?.description == """
                Graft: cannot resolve Resource (name: "a"): the container was shut down
                  resolve before shutdown()
                """
        )
    }

    @Test func resolvingAnInstanceRegistrationAfterShutdownThrowsClosed() throws {
        var builder = ContainerBuilder()
        builder.register(Wheel.self, instance: Wheel())
        let container = try builder.build()
        try container.shutdown()

        let error = #expect(throws: GraftError.self) { try container.resolve(Wheel.self) }
        #expect(
            error?.description == """
                Graft: cannot resolve Wheel: the container was shut down
                  resolve before shutdown()
                """
        )
    }

    @Test func scopeMadeAfterShutdownResolvesOnlyErrors() throws {
        let container = try builder(["a"]).build()
        try container.shutdown()

        let scope = container.makeScope()

        #expect(scope.isClosed)
        let error = #expect(throws: GraftError.self) { try scope.resolve(Resource.self, name: "a") }
        #expect(
            error?.description == """
                Graft: cannot resolve Resource (name: "a"): its scope was closed because the container was shut down
                  no scope opens once the container has shut down: resolve before shutdown()
                """
        )
        let fromChild = #expect(throws: GraftError.self) { try scope.makeScope().resolve(Resource.self, name: "a") }
        #expect(fromChild?.description == error?.description)
        try scope.close()
        #expect(log.entries.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncCloseAwaitsAsyncDisposals() async throws {
        var builder = builder(["sync"])
        builder.register(Drain.self, lifetime: .scoped) { [log] _ in Drain(log: log) }
        let container = try await builder.build()
        let scope = container.makeScope()
        _ = try await scope.resolve(Drain.self)
        _ = try await scope.resolve(Resource.self, name: "sync")

        try await scope.close()

        #expect(log.entries == ["sync", "drain"])
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncWithScopeClosesTheScope() async throws {
        var builder = ContainerBuilder()
        builder.register(Drain.self, lifetime: .scoped) { [log] _ in Drain(log: log) }
        let container = try await builder.build()

        let scope = try await container.withScope { scope in
            _ = try await scope.resolve(Drain.self)
            return scope
        }

        #expect(scope.isClosed)
        #expect(log.entries == ["drain"])
    }
}
