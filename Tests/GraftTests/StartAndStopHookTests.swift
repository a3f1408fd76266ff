import Graft
import Testing

@Suite(.timeLimit(.minutes(1))) struct StartAndStopHookTests {
    @Test func startRunsEachHookOnceAfterEverythingItDependsOnEvenThroughATransient() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        // Added in the reverse of the order they must run in.
        builder.logStartAndStop(Picker.self, log)
        builder.logStartAndStop(Shelf.self, log)
        builder.logStartAndStop(Warehouse.self, log)
        let container = try await builder.build()
        #expect(log.entries.isEmpty, "build() starts nothing")

        try await container.start()
        #expect(log.entries == ["start Warehouse", "start Shelf", "start Picker"])

        try await container.shutdown()
        #expect(
            log.entries == [
                "start Warehouse", "start Shelf", "start Picker",
                "stop Picker", "stop Shelf", "stop Warehouse",
                "dispose Shelf", "dispose Warehouse",
            ]
        )
    }

    @Test func aThrowingStartHookStopsWhatStartedNewestFirstAndNamesTheService() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.logStartAndStop(Warehouse.self, log)
        builder.logStartAndStop(Picker.self, log)
        builder.onStart(Shelf.self) { _ in throw Jammed(part: "shelf warm-up") }
        builder.onStop(Shelf.self) { _ in log.append("stop Shelf") }
        let container = try await builder.build()

        let error = await #expect(throws: GraftError.withCode(.startFailed)) { try await container.start() }
        #expect(log.entries == ["start Warehouse", "stop Warehouse"], "Picker never started; Shelf did not start")
        #expect(error?.service == "Shelf")
        #expect(error?.underlyingError as? Jammed == Jammed(part: "shelf warm-up"))
        #expect(
            error?.description == """
                Graft: start hook of Shelf threw: shelf warm-up is jammed
                  stopped what had started, newest first: Warehouse
                  shut the container down to dispose what was made; build a new one to start again
                """
        )
        try await container.shutdown()
        #expect(log.entries == ["start Warehouse", "stop Warehouse", "dispose Shelf", "dispose Warehouse"])
    }

    @Test func aServiceThatCannotBeMadeFailsTheStartWithItsPath() async throws {
        var builder = ContainerBuilder()
        builder.register(Warehouse.self, lifetime: .singleton) { _ -> Warehouse in throw Jammed(part: "warehouse") }
        builder.onStart(Warehouse.self) { _ in }
        let container = try await builder.build()

        let error = await #expect(throws: GraftError.withCode(.startFailed)) { try await container.start() }
        #expect(error?.service == "Warehouse")
        #expect(error?.summary.hasPrefix("Warehouse could not be made to start it: ") == true)
        #expect(error?.hints.contains("nothing had started before it") == true)
    }

    @Test func stopHooksRunOnlyForServicesThatStartedOrWithoutAStartHookWereMade() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.logStartAndStop(Picker.self, log)  // never started: the container is not
        builder.onStop(Shelf.self) { _ in log.append("stop Shelf") }  // made below
        builder.onStop(Warehouse.self) { _ in log.append("stop Warehouse") }  // made, as Shelf needs it
        let container = try await builder.build()
        _ = try await container.resolve(Shelf.self)
        _ = try await container.resolve(Picker.self)

        try await container.shutdown()
        #expect(log.entries == ["stop Shelf", "stop Warehouse", "dispose Shelf", "dispose Warehouse"])
    }

    @Test func aStopHookThatThrowsKeepsNeitherTheOthersNorDisposalFromRunning() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.logStartAndStop(Warehouse.self, log)
        builder.onStart(Shelf.self) { _ in }
        builder.onStop(Shelf.self) { _ in throw Jammed(part: "shelf flush") }
        let container = try await builder.build()
        try await container.start()

        let error = await #expect(throws: GraftError.withCode(.stopFailed)) { try await container.shutdown() }
        #expect(log.entries == ["start Warehouse", "stop Warehouse", "dispose Shelf", "dispose Warehouse"])
        #expect(
            error?.description == """
                Graft: 1 stop hook failed while shutting the container down
                  every other service was stopped and every instance disposed
                  1. stop hook of Shelf threw: shelf flush is jammed
                """
        )
    }

    @Test func startingTwiceIsAnError() async throws {
        let container = try await ContainerBuilder().build()
        try await container.start()
        let error = await #expect(throws: GraftError.withCode(.alreadyStarted)) { try await container.start() }
        #expect(
            error?.description == """
                Graft: container.start() was called twice: a container starts once
                  shut this container down, and build a new one from the builder to start again
                """
        )
    }

    @Test func startingAgainAfterAFailedStartSaysSo() async throws {
        var builder = ContainerBuilder()
        builder.register(Warehouse.self, lifetime: .singleton) { _ in Warehouse(log: EventLog()) }
        builder.onStart(Warehouse.self) { _ in throw Jammed(part: "warehouse") }
        let container = try await builder.build()
        await #expect(throws: GraftError.withCode(.startFailed)) { try await container.start() }
        let error = await #expect(throws: GraftError.withCode(.alreadyStarted)) { try await container.start() }
        #expect(error?.summary == "container.start() was called after a start that failed: a container starts once")
    }

    @Test func startingAfterShutdownIsAnError() async throws {
        let container = try await ContainerBuilder().build()
        try await container.shutdown()
        let error = await #expect(throws: GraftError.withCode(.closed)) { try await container.start() }
        #expect(
            error?.description == """
                Graft: container.start() was called after shutdown began: a container that shuts down does not start again
                  build a new container from the builder to start again
                """
        )
    }

    @Test func shuttingDownWithoutStartingStopsNothingThatHasAStartHook() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.logStartAndStop(Warehouse.self, log)
        let container = try await builder.build()
        _ = try await container.resolve(Warehouse.self)
        try await container.shutdown()
        #expect(log.entries == ["dispose Warehouse"])
    }

    @Test func theSynchronousShutdownRefusesStopHooksItCannotAwait() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.logStartAndStop(Warehouse.self, log)
        let container = try await builder.build()
        try await container.start()

        let error = #expect(throws: GraftError.withCode(.needsAwait)) { try container.shutdown() }
        #expect(
            error?.description == """
                Graft: shutdown() cannot stop Warehouse without await
                  shut the container down with `try await container.shutdown()`: stop hooks and running services are awaited
                """
        )
        #expect(log.entries == ["start Warehouse"], "nothing was stopped or disposed")
        try await container.shutdown()
        #expect(log.entries == ["start Warehouse", "stop Warehouse", "dispose Warehouse"])
    }

    @Test func overridingKeepsTheHooks() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.logStartAndStop(Warehouse.self, log)
        let container = try await builder.build().overriding {
            $0.register(Picker.self) { _ in Picker(shelf: Shelf(catalog: Catalog(warehouse: Warehouse(log: log)))) }
        }
        try await container.start()
        #expect(log.entries == ["start Warehouse"])
        try await container.shutdown()
    }
}
