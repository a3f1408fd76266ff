import Graft
import Testing

/// A start hook that waits for what never comes (a server that does not answer), as long as its
/// task is not cancelled, or, ignoring cancellation, for ever.
private func hangs(ignoringCancellation: Bool, _ cancelled: Latch) async {
    await Latch().wait()
    cancelled.open()
    // A latch nobody opens, waited for in a task of its own, which no cancellation reaches.
    if ignoringCancellation { await Task { await Latch().wait() }.value }
}

/// The message of a start that ran out of its 20 ms when `unfinished`.
private func timedOut(_ unfinished: String, rollBack: String) -> String {
    """
    Graft: container.start(timeout: 0.02 seconds) ran out of time: \(unfinished)
      it was cancelled and is not awaited; make it give up sooner (a connect timeout, say), or give start(timeout:) more time
      \(rollBack)
      shut the container down to dispose what was made; build a new one to start again
    """
}

/// `start(timeout:)`: a start that runs out of time fails as a hook that throws does.
@Suite(.timeLimit(.minutes(1))) struct StartTimeoutTests {
    @Test(arguments: [false, true])
    func aStartHookStillRunningAtTheLimitFailsTheStartNamingItAndStopsWhatStarted(
        ignoringCancellation: Bool
    )
        async throws
    {
        let log = EventLog()
        let cancelled = Latch()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.logStartAndStop(Warehouse.self, log)
        builder.onStart(Shelf.self) { _ in await hangs(ignoringCancellation: ignoringCancellation, cancelled) }
        builder.onStop(Shelf.self) { _ in log.append("stop Shelf") }
        builder.logStartAndStop(Picker.self, log)
        let container = try await builder.build()

        let error = await #expect(throws: GraftError.withCode(.startTimedOut)) {
            try await container.start(timeout: .milliseconds(20))
        }
        #expect(error?.service == "Shelf")
        #expect(
            error?.description
                == timedOut(
                    "the start hook of Shelf was still running",
                    rollBack: "stopped what had started, newest first: Warehouse"
                )
        )
        await cancelled.wait()
        #expect(log.entries == ["start Warehouse", "stop Warehouse"], "Shelf never started, nor Picker")
        try await container.shutdown()
    }

    @Test func aServiceStillBeingMadeAtTheLimitIsNamed() async throws {
        var builder = ContainerBuilder()
        builder.register(Warehouse.self, lifetime: .singleton) { _ async in
            await Latch().wait()
            return Warehouse(log: EventLog())
        }
        builder.onStart(Warehouse.self) { _ in }
        let container = try await builder.build()

        let error = await #expect(throws: GraftError.withCode(.startTimedOut)) {
            try await container.start(timeout: .milliseconds(20))
        }
        #expect(error?.service == "Warehouse")
        #expect(
            error?.description
                == timedOut("making Warehouse was still running", rollBack: "nothing had started before it")
        )
        try await container.shutdown()
    }

    @Test func aStartWithinItsLimitStartsAsOneWithout() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.logStartAndStop(Warehouse.self, log)
        builder.logStartAndStop(Picker.self, log)
        let container = try await builder.build()
        try await container.start(timeout: .seconds(600))
        #expect(log.entries == ["start Warehouse", "start Picker"])
        try await container.shutdown()
        #expect(
            log.entries == [
                "start Warehouse", "start Picker", "stop Picker", "stop Warehouse", "dispose Shelf",
                "dispose Warehouse",
            ]
        )
    }

    @Test func aFailingHookUnderALimitFailsTheStartAsWithout() async throws {
        var builder = ContainerBuilder()
        builder.register(Warehouse.self, lifetime: .singleton) { _ in Warehouse(log: EventLog()) }
        builder.onStart(Warehouse.self) { _ in throw Jammed(part: "loading dock") }
        let container = try await builder.build()
        let error = await #expect(throws: GraftError.withCode(.startFailed)) {
            try await container.start(timeout: .seconds(600))
        }
        #expect(error?.summary == "start hook of Warehouse threw: loading dock is jammed")
        try await container.shutdown()
    }

    @Test func runWithAStartTimeoutThrowsTheTimeoutAndShutsTheContainerDown() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.onStart(Shelf.self) { _ in await Latch().wait() }
        let container = try await builder.build()
        await #expect(throws: GraftError.withCode(.startTimedOut)) {
            try await container.run(startTimeout: .milliseconds(20))
        }
        #expect(container.isShuttingDown)
        #expect(log.entries == ["dispose Shelf", "dispose Warehouse"])
    }
}
