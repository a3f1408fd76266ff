import Foundation
import Graft
import Synchronization
import Testing

// Hints a user can act on: each names what to write where the message is read, and compiles
// when copied (issue 41, section 4).

/// A garage and its crew need each other; the crew's `Lazy` breaks the cycle. The garage opens
/// with `await`.
private final class Garage: Sendable {
    let crew: PitCrew

    init(crew: PitCrew) async {
        await Task.yield()
        self.crew = crew
    }
}

private final class PitCrew: Sendable {
    let garage: Lazy<Garage>
    let spare: Provider<Garage>

    init(garage: Lazy<Garage>, spare: Provider<Garage>) {
        self.garage = garage
        self.spare = spare
    }
}

private func garageBuilder() -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.register(Garage.self, lifetime: .singleton, using: Garage.init(crew:))
    builder.register(PitCrew.self, using: PitCrew.init(garage:spare:))
    return builder
}

/// Runs `body` on a thread of its own, outside any task, and returns the description of what
/// it threw.
private func failureOutsideAnyTask(_ body: @escaping @Sendable () throws(GraftError) -> Void) -> String? {
    let result = Mutex<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do {
            try body()
        } catch {
            result.withLock { $0 = "\(error)" }
        }
        done.signal()
    }
    thread.start()
    done.wait()
    return result.withLock { $0 }
}

/// The synchronous `get()` of a `Lazy` (or `Provider`) whose service needs `await` names the
/// async `get()`: the user wrote no `resolve` to add `await` to.
@Suite struct SyncReadOfAnAsyncLazyNamesItsAsyncGet {
    @Test func outsideATaskTheHintIsTheAsyncGet() throws {
        let container = try garageBuilder().build()
        let crew = try container.resolve(PitCrew.self)
        let lazy = """
            Graft: Garage needs await to be created: its factory is async
              read Lazy<Garage> with `try await lazy.get()` from async code
            """
        #expect(failureOutsideAnyTask { () throws(GraftError) in _ = try crew.garage.get() } == lazy)
        #expect(failureOutsideAnyTask { () throws(GraftError) in _ = try crew.garage.value } == lazy)
        #expect(
            failureOutsideAnyTask { () throws(GraftError) in _ = try crew.spare.get() } == """
                Graft: Garage needs await to be created: its factory is async
                  read Provider<Garage> with `try await provider.get()` from async code
                """
        )
    }

    /// A synchronous function an async test calls: the synchronous `get()`, inside a task.
    private func readSynchronously(_ lazy: Lazy<Garage>) throws(GraftError) -> Garage {
        try lazy.get()
    }

    @Test func insideATaskTheHintSaysHowToReachTheAsyncGet() async throws {
        let container = try await garageBuilder().build()
        let crew = try await container.resolve(PitCrew.self)
        let error = #expect(throws: GraftError.self) { try readSynchronously(crew.garage) }
        #expect(
            error?.description == """
                Graft: Garage needs await to be created: its factory is async
                  this runs inside a task, but Swift picked the synchronous get()
                  in an async function, write `try await lazy.get()` (a synchronous function or closure must become async first)
                  in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
        )
        // What the hint says works, and the value is then there for a synchronous read too.
        let garage = try await crew.garage.get()
        #expect(try readSynchronously(crew.garage) === garage)
    }
}
