import Foundation
import Graft
import Synchronization
import Testing

// The sync/async overload traps: a synchronous call that fails for want of `await` says what to
// write where it runs. Inside a task (an async function, or top-level code that awaits) Swift may
// have picked the synchronous overload although `await` was written; outside a task the plain
// hint is right.

/// An async-disposable service made without `await`, so synchronous code can create it.
private final class Drain: AsyncDisposable {
    let disposed = Mutex(false)

    func dispose() async throws {
        disposed.withLock { $0 = true }
    }
}

private final class Audit: Sendable {}

private final class Repository: Sendable {
    let pool: Pool

    init(pool: Pool) {
        self.pool = pool
    }
}

private func poolBuilder(_ lifetime: Lifetime) -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.register(Pool.self, lifetime: lifetime) { _ async in await Pool(opening: "pool") }
    builder.register(Repository.self, using: Repository.init(pool:))
    builder.register(Drain.self, lifetime: .scoped) { _ in Drain() }
    return builder
}

/// Runs `body` on a thread of its own, outside any task, and returns what it returned.
private func outsideAnyTask<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
    let result = Mutex<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.withLock { $0 = body() }
        done.signal()
    }
    thread.start()
    done.wait()
    return result.withLock { $0 }!
}

/// A synchronous function an async test calls: the synchronous overloads, inside a task.
private func synchronously<Value>(_ body: () throws(GraftError) -> Value) -> GraftError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

private let topLevelLine =
    "in top-level code (main.swift) Swift picks the synchronous overload even after `await`: "
    + "move the code into an async function or an `@main` type's `static func main() async`"

@Suite struct OverloadTrapTests {
    @Test func needsAwaitInsideATaskSaysHowToReachTheAsyncResolve() async throws {
        let container = try await poolBuilder(.singleton).build()
        let error = synchronously { () throws(GraftError) in try container.resolve(Repository.self) }
        #expect(
            error?.description
                == """
                Graft: Repository needs await to be created: it depends on Pool, whose factory is async
                  this runs inside a task, but Swift picked the synchronous resolve
                  in an async function, write `try await resolve(Repository.self)` (a synchronous function or closure must become async first)
                  \(topLevelLine)
                """
        )
    }

    @Test func needsAwaitOutsideATaskKeepsThePlainHint() async throws {
        let container = try await poolBuilder(.singleton).build()
        let description = outsideAnyTask {
            synchronously { () throws(GraftError) in try container.resolve(Repository.self) }?.description
        }
        #expect(
            description
                == """
                Graft: Repository needs await to be created: it depends on Pool, whose factory is async
                  resolve it with `try await resolve(Repository.self)` from async code
                """
        )
    }

    /// A synchronous closure factory cannot await: the fix is in its registration, not in how
    /// the caller spelled the resolve, which here was `try await` already.
    @Test func needsAwaitInsideASynchronousFactoryPointsAtTheFactory() async throws {
        var builder = poolBuilder(.singleton)
        builder.register(Audit.self) { r in
            _ = try r.resolve(Pool.self)
            return Audit()
        }
        let container = try await builder.build()
        let error = await #expect(throws: GraftError.self) { try await container.resolve(Audit.self) }
        #expect(
            error?.description
                == """
                Graft: Pool needs await to be created: its factory is async
                  resolving: Audit → Pool
                  the synchronous factory (or activation hook) of Audit cannot await it: register Audit with an async factory (`{ r async throws in ... try await r.resolve(Pool.self) }`) or autowire it, so Graft awaits it first
                """
        )
    }

    @Test func synchronousBuildInsideATaskSaysHowToReachTheAsyncBuild() {
        let builder = poolBuilder(.eagerSingleton)
        let error = synchronously { () throws(GraftError) in try builder.build() }
        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: eager singleton Pool needs await to be created: its factory is async
                  this runs inside a task, but Swift picked the synchronous build() (or validate())
                  in an async function, write `try await builder.build()` (a synchronous function or closure must become async first)
                  \(topLevelLine)
                """
            ]
        )
    }

    @Test func synchronousBuildOutsideATaskSaysToBuildWithAwait() {
        let builder = poolBuilder(.eagerSingleton)
        let problems = outsideAnyTask {
            synchronously { () throws(GraftError) in try builder.build() }?.problems.map(\.description)
        }
        #expect(
            problems == [
                """
                Graft: eager singleton Pool needs await to be created: its factory is async
                  build with `try await builder.build()`, which creates it
                """
            ]
        )
    }

    /// `try await builder.build()` in top-level code calls the synchronous `build()`; the
    /// `TopLevelTrap` executable does exactly that and prints the error.
    @Test func topLevelAwaitPicksTheSynchronousBuildAndTheMessageSaysSo() throws {
        let output = try runTopLevelTrap()
        #expect(
            output
                == """
                Graft: build() found 1 problem
                  1. eager singleton Pool needs await to be created: its factory is async
                     this runs inside a task, but Swift picked the synchronous build() (or validate())
                     in an async function, write `try await builder.build()` (a synchronous function or closure must become async first)
                     \(topLevelLine)

                """
        )
    }

    @Test func synchronousCloseInsideATaskSaysHowToAwaitIt() async throws {
        let container = try await poolBuilder(.singleton).build()
        let scope = container.makeScope()
        let drain = try await scope.resolve(Drain.self)
        let error = synchronously { () throws(GraftError) in try scope.close() }
        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: Drain is AsyncDisposable and was not disposed by a synchronous close
                  this runs inside a task, but Swift picked the synchronous close()
                  in an async function, write `try await scope.close()` (a synchronous function or closure must become async first)
                  \(topLevelLine)
                """
            ]
        )
        #expect(drain.disposed.withLock { $0 } == false)
    }

    @Test func synchronousShutdownOutsideATaskSaysToShutDownFromAsyncCode() async throws {
        let container = try await poolBuilder(.singleton).build()
        _ = try await container.resolve(Pool.self)
        let problems = outsideAnyTask {
            synchronously { () throws(GraftError) in try container.shutdown() }?.problems.map(\.description)
        }
        #expect(
            problems == [
                """
                Graft: Pool is AsyncDisposable and was not disposed by a synchronous close
                  shut down from async code with `try await container.shutdown()`
                """
            ]
        )
    }

    /// `try await container.withScope { scope in try scope.resolve(...) }` has no `await` in
    /// its body, so Swift picks the synchronous `withScope`; the hint says what picks the other.
    @Test func withScopeWithoutAwaitInItsBodySaysWhatPicksTheAsyncOne() async throws {
        let container = try await poolBuilder(.singleton).build()
        let drain = Mutex<Drain?>(nil)
        let error = #expect(throws: GraftError.self) {
            // The body has no `await`, as in the trap: the synchronous withScope runs.
            try container.withScope { scope in
                let made = try scope.resolve(Drain.self)
                drain.withLock { $0 = made }
            }
        }
        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: Drain is AsyncDisposable and was not disposed by a synchronous close
                  the synchronous withScope ran because its body has no `await`; the async withScope, which awaits async disposals, runs for a body that awaits, e.g. `try await container.withScope { scope in try await scope.resolve(Drain.self) }`
                """
            ]
        )
        #expect(drain.withLock { $0?.disposed.withLock { $0 } } == false)
        // The spelling the hint gives does pick the async withScope, which disposes it.
        let awaited = try await container.withScope { scope in try await scope.resolve(Drain.self) }
        #expect(awaited.disposed.withLock { $0 })
    }
}

/// Runs the `TopLevelTrap` executable, built next to the test bundle, and returns its output.
private func runTopLevelTrap() throws -> String {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // On Apple platforms the test binary sits inside `GraftPackageTests.xctest/Contents/MacOS`.
    while directory.path.contains(".xctest") {
        directory.deleteLastPathComponent()
    }
    let process = Process()
    process.executableURL = directory.appendingPathComponent("TopLevelTrap")
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
