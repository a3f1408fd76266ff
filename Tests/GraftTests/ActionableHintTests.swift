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

/// A name nobody registers offers the names that are registered for the type: the close one as
/// "did you mean", otherwise the list, before how to register it.
@Suite struct MissingNamedRegistrationOffersTheRegisteredNames {
    private func container() throws -> Container {
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ in V12Engine() }
        builder.register((any Engine).self, name: "v12") { _ in V12Engine() }
        builder.register((any Engine).self, name: "electric") { _ in V12Engine() }
        return try builder.build()
    }

    @Test func aCloseNameIsOfferedAsDidYouMean() throws {
        let container = try container()
        let error = #expect(throws: GraftError.self) { try container.resolve((any Engine).self, name: "V21") }
        #expect(
            error?.description == """
                Graft: no registration for Engine (name: "V21")
                  did you mean Engine["v12"]?
                  register it, made by a type that conforms to Engine: builder.register((any Engine).self, name: "V21", using: <ConformingType>.init)
                """
        )
    }

    @Test func withNoCloseNameTheRegisteredNamesAreListed() throws {
        let container = try container()
        let error = #expect(throws: GraftError.self) { try container.resolve((any Engine).self, name: "diesel") }
        #expect(
            error?.description == """
                Graft: no registration for Engine (name: "diesel")
                  registered for Engine: Engine, Engine["v12"], Engine["electric"]
                  register it, made by a type that conforms to Engine: builder.register((any Engine).self, name: "diesel", using: <ConformingType>.init)
                """
        )
    }

    @Test func aNamedDependencyBuildCannotFindOffersTheCloseName() {
        var builder = ContainerBuilder()
        builder.register((any Engine).self, name: "v12") { _ in V12Engine() }
        builder.register(String.self, dependencies: [Requirement((any Engine).self, name: "v-12")]) { _ in "" }
        let problems = builder.validate()
        #expect(problems.map(\.code) == [.missingDependency])
        #expect(problems.first?.hints.first == #"did you mean Engine["v12"]?"#)
    }
}

private final class Clock: Sendable {}
private final class Settings: Sendable {}
private final class Cart: Sendable {
    init(clock: Clock) {}
}
private final class Checkout: Sendable {
    init(clock: Clock, settings: Settings) {}
}
private final class PriceList: Sendable {
    init(clock: Clock) {}
}
private enum Session: ScopeTag {}
private final class Basket: Sendable {
    init(settings: Settings) {}
}

/// The "register it" hint keeps the lifetime the dependents need (the longest-lived of them, so
/// following it makes no captive dependency) and autowires the initializer: it compiles when
/// copied.
@Suite struct RegisterHintKeepsTheNeededLifetimeAndAutowires {
    @Test func aScopedServiceMissingADependencySuggestsItScoped() {
        var builder = ContainerBuilder()
        builder.register(Cart.self, lifetime: .scoped, using: Cart.init(clock:))
        let problems = builder.validate()
        #expect(
            problems.first?.hints.first
                == "register it as long-lived as Cart, which needs it, autowiring its initializer: "
                + "builder.register(Clock.self, lifetime: .scoped, using: Clock.init), or as a value: builder.register(Clock.self, instance: Clock(...))"
        )
    }

    @Test func theLongestLivedDependentDecidesSoNoneIsCaptive() throws {
        var builder = ContainerBuilder()
        builder.register(Cart.self, lifetime: .scoped, using: Cart.init(clock:))
        builder.register(PriceList.self, lifetime: .singleton, using: PriceList.init(clock:))
        builder.register(Checkout.self, using: Checkout.init(clock:settings:))
        let problems = builder.validate()
        #expect(
            problems.map(\.code) == [.missingDependency, .missingDependency, .missingDependency, .missingDependency]
        )
        let registerClock =
            "register it as long-lived as PriceList, which needs it, autowiring its initializer: "
            + "builder.register(Clock.self, lifetime: .singleton, using: Clock.init), or as a value: builder.register(Clock.self, instance: Clock(...))"
        #expect(
            problems.map { $0.hints.first } == [
                registerClock, registerClock, registerClock,
                "register it, autowiring its initializer: builder.register(Settings.self, using: Settings.init), or as a value: builder.register(Settings.self, instance: Settings(...))",
            ]
        )
        // Followed, the hints build.
        builder.register(Clock.self, lifetime: .singleton, using: Clock.init)
        builder.register(Settings.self, using: Settings.init)
        let container = try builder.build()
        _ = try container.makeScope().resolve(Cart.self)
    }

    @Test func aTaggedServiceMissingADependencySuggestsItsTag() {
        var builder = ContainerBuilder()
        let line = #line + 1
        builder.register(Basket.self, lifetime: .scoped(in: Session.self), using: Basket.init(settings:))
        #expect(
            builder.validate().first?.description == """
                Graft: no registration for Settings, which Basket needs
                  resolving: Basket → Settings
                  register it as long-lived as Basket, which needs it, autowiring its initializer: builder.register(Settings.self, lifetime: .scoped(in: Session.self), using: Settings.init), or as a value: builder.register(Settings.self, instance: Settings(...))
                  Basket was registered at GraftTests/ActionableHintTests.swift:\(line)
                """
        )
    }

    @Test func aResolveByHandLeavesTheLifetimeToTheDefault() throws {
        let error = #expect(throws: GraftError.self) { try ContainerBuilder().build().resolve(Clock.self) }
        #expect(
            error?.description == """
                Graft: no registration for Clock
                  register it, autowiring its initializer: builder.register(Clock.self, using: Clock.init), or as a value: builder.register(Clock.self, instance: Clock(...))
                """
        )
    }
}

private struct RequestID: Sendable {
    let value: String
}

/// A type declared as a scope value and registered as a service too: whichever came last would
/// answer, and every request would fail; `build()` says so, with both sites.
@Suite struct ScopeValueRegisteredAsAServiceFailsBuild {
    @Test(arguments: [false, true])
    func bothSitesAreNamedWithWhatToDo(serviceFirst: Bool) {
        var builder = ContainerBuilder()
        let (declared, registered): (Int, Int)
        if serviceFirst {
            registered = #line + 1
            builder.register(RequestID.self) { _ in RequestID(value: "fixed") }
            declared = #line + 1
            builder.registerScopeValue(RequestID.self)
        } else {
            declared = #line + 1
            builder.registerScopeValue(RequestID.self)
            registered = #line + 1
            builder.register(RequestID.self) { _ in RequestID(value: "fixed") }
        }
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.problems.map(\.code) == [.conflictingRegistration])
        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. RequestID is declared as a scope value and also registered as a service
                     declared as a scope value at GraftTests/ActionableHintTests.swift:\(declared); registered as a service at GraftTests/ActionableHintTests.swift:\(registered)
                     keep one: if each scope is given its RequestID (makeScope(providing:), or a web integration's request values), remove the service registration; if a factory makes it, remove registerScopeValue(RequestID.self)
                """
        )
    }

    @Test func aNamedRegistrationOfTheTypeIsNoConflict() throws {
        var builder = ContainerBuilder()
        builder.registerScopeValue(RequestID.self)
        builder.register(RequestID.self, name: "fallback") { _ in RequestID(value: "none") }
        let container = try builder.build()
        let scope = try container.makeScope(providing: RequestID(value: "7f3a"))
        #expect(try scope.resolve(RequestID.self).value == "7f3a")
    }
}

private final class Ledger: Sendable {}
private final class Audit: Sendable {}
private final class Reports: Sendable {
    init(ledger: Ledger, audit: Audit) {}
}

/// `build()` reports every problem at once: a service with two captive dependencies gets both.
@Suite struct BuildReportsEveryCaptiveDependency {
    @Test func bothCaptivesOfOneServiceAreReported() {
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped, using: Ledger.init)
        builder.register(Audit.self, lifetime: .scoped, using: Audit.init)
        builder.register(Reports.self, lifetime: .singleton, using: Reports.init(ledger:audit:))
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(
            error?.description == """
                Graft: build() found 2 problems
                  1. captive dependency: Reports (.singleton) depends on Ledger (.scoped)
                     resolving: Reports → Ledger
                     a .singleton outlives each .scoped instance; make Reports .scoped or shorter-lived, or make Ledger live as long
                  2. captive dependency: Reports (.singleton) depends on Audit (.scoped)
                     resolving: Reports → Audit
                     a .singleton outlives each .scoped instance; make Reports .scoped or shorter-lived, or make Audit live as long
                """
        )
    }

    @Test func everyKindOfProblemIsReportedInTheSameBuild() {
        var builder = ContainerBuilder()
        builder.registerScopeValue(RequestID.self)
        builder.register(RequestID.self) { _ in RequestID(value: "fixed") }
        builder.register(Ledger.self, lifetime: .scoped, using: Ledger.init)
        builder.register(Reports.self, lifetime: .singleton, using: Reports.init(ledger:audit:))
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.problems.map(\.code) == [.conflictingRegistration, .missingDependency, .captiveDependency])
        #expect(builder.validate().map(\.code) == error?.problems.map(\.code))
    }
}
