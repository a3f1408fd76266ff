import Graft
import Synchronization
import Testing

// A parent (the app) with a shared store, a per-request context and a transient clock; each
// child (a tenant) adds its own settings and services.

private final class Journal: Sendable {
    let lines = Mutex<[String]>([])
    func write(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

private final class Store: Disposable {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }
    func dispose() { journal.write("Store") }
}

private final class RequestContext: Disposable {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }
    func dispose() { journal.write("RequestContext") }
}

private struct Region: Sendable {
    let name: String
}

/// A parent transient that reads the parent's `Region`, whatever a child registers.
private struct Clock: Sendable {
    let region: Region
}

/// A parent transient that holds the parent's scoped context.
private struct Auditor: Sendable {
    let context: RequestContext
}

private struct TenantSettings: Sendable {
    let id: String
}

private final class Billing: Disposable {
    let settings: TenantSettings
    let store: Store
    let journal: Journal
    init(settings: TenantSettings, store: Store, journal: Journal) {
        self.settings = settings
        self.store = store
        self.journal = journal
    }
    func dispose() { journal.write("Billing \(settings.id)") }
}

private struct Invoice: Sendable {
    let billing: Billing
    let context: RequestContext
}

private struct Report: Sendable {
    let region: Region
    let clock: Clock
}

private protocol Plugin: Sendable {
    var name: String { get }
}

private struct NamedPlugin: Plugin {
    let name: String
}

private struct PluginHost: Sendable {
    let plugins: All<any Plugin>
}

private func appBuilder(_ journal: Journal) -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.register(Journal.self, instance: journal)
    builder.register(Store.self, lifetime: .singleton, using: Store.init(journal:))
    builder.register(RequestContext.self, lifetime: .scoped, using: RequestContext.init(journal:))
    builder.register(Region.self, instance: Region(name: "eu"))
    builder.register(Clock.self, using: Clock.init(region:))
    builder.register(Auditor.self, using: Auditor.init(context:))
    builder.register((any Plugin).self) { _ in NamedPlugin(name: "app") }
    return builder
}

private func tenant(_ id: String) -> (inout ContainerBuilder) -> Void {
    { builder in
        builder.register(TenantSettings.self, instance: TenantSettings(id: id))
        builder.register(Billing.self, lifetime: .singleton, using: Billing.init(settings:store:journal:))
    }
}

@Suite struct ChildContainerTests {
    // MARK: Isolation and overriding

    @Test func childResolvesItsOwnAndItsParentsServices() throws {
        let app = try appBuilder(Journal()).build()
        let child = try app.makeChild(tenant("acme"))

        #expect(try child.resolve(Billing.self).settings.id == "acme")
        #expect(try child.resolve(Region.self).name == "eu")
        #expect(child.parent === app)
        #expect(app.parent == nil)
    }

    @Test func parentNeverSeesTheChildsRegistrations() throws {
        let app = try appBuilder(Journal()).build()
        _ = try app.makeChild(tenant("acme"))

        let error = #expect(throws: GraftError.self) { try app.resolve(Billing.self) }
        #expect(error?.code == .notRegistered)
    }

    @Test func siblingsDoNotSeeEachOther() throws {
        let app = try appBuilder(Journal()).build()
        let acme = try app.makeChild(tenant("acme"))
        let other = try app.makeChild { $0.register(Int.self, instance: 7) }

        #expect(throws: GraftError.self) { try other.resolve(Billing.self) }
        #expect(throws: GraftError.self) { try acme.resolve(Int.self) }
    }

    @Test func childsRegistrationOfAParentKeyIsWhatTheChildResolvesAndInjects() throws {
        let app = try appBuilder(Journal()).build()
        let child = try app.makeChild { builder in
            builder.register(Region.self, instance: Region(name: "us"))
            builder.register(Report.self, using: Report.init(region:clock:))
        }

        let report = try child.resolve(Report.self)

        #expect(try child.resolve(Region.self).name == "us")
        #expect(report.region.name == "us")
        // The parent's Clock is the parent's: made by the parent, with the parent's Region.
        #expect(report.clock.region.name == "eu")
        #expect(try child.resolve(Clock.self).region.name == "eu")
        #expect(try app.resolve(Region.self).name == "eu")
    }

    @Test func lazyAndOptionalOfAParentServiceResolveThroughTheChild() throws {
        let app = try appBuilder(Journal()).build()
        let child = try app.makeChild(tenant("acme"))

        let store = try child.resolve(Lazy<Store>.self)
        #expect(try store.value === app.resolve(Store.self))
        #expect(try child.resolve(Optional<Region>.self)?.name == "eu")
        #expect(try child.resolve(Optional<TenantSettings>.self)?.id == "acme")
    }

    @Test func childRegistrationsReceiveLazyAndProvidersOfParentServices() throws {
        struct Deferred: Sendable {
            let store: Lazy<Store>
            let contexts: Provider<RequestContext>
        }
        let app = try appBuilder(Journal()).build()
        let child = try app.makeChild { builder in
            builder.register(Deferred.self, lifetime: .scoped, using: Deferred.init(store:contexts:))
        }

        let scope = child.makeScope()
        let deferred = try scope.resolve(Deferred.self)

        #expect(try deferred.store.value === app.resolve(Store.self))
        #expect(try deferred.contexts.get() === scope.resolve(RequestContext.self))
        try scope.close()
    }

    // MARK: Singletons

    @Test func parentSingletonsAreSharedByEveryChild() throws {
        let app = try appBuilder(Journal()).build()
        let acme = try app.makeChild(tenant("acme"))
        let globex = try app.makeChild(tenant("globex"))

        let store = try app.resolve(Store.self)

        #expect(try acme.resolve(Store.self) === store)
        #expect(try acme.resolve(Billing.self).store === store)
        #expect(try globex.resolve(Billing.self).store === store)
    }

    @Test func childSingletonsAreMadeOncePerChild() throws {
        let app = try appBuilder(Journal()).build()
        let acme = try app.makeChild(tenant("acme"))
        let globex = try app.makeChild(tenant("globex"))

        #expect(try acme.resolve(Billing.self) === acme.resolve(Billing.self))
        #expect(try acme.resolve(Billing.self) !== globex.resolve(Billing.self))
    }

    @Test func childShutdownDisposesTheChildsSingletonsNeverTheParents() throws {
        let journal = Journal()
        let app = try appBuilder(journal).build()
        let acme = try app.makeChild(tenant("acme"))
        _ = try acme.resolve(Billing.self)

        try acme.shutdown()

        #expect(journal.all == ["Billing acme"])
        #expect(throws: GraftError.self) { try acme.resolve(Billing.self) }
        #expect(throws: GraftError.self) { try acme.resolve(Store.self) }
        _ = try app.resolve(Store.self)
        try app.shutdown()
        #expect(journal.all == ["Billing acme", "Store"])
    }

    @Test func eagerSingletonsOfTheChildAreMadeWithTheChild() throws {
        let journal = Journal()
        let app = try appBuilder(journal).build()
        let made = Mutex(0)

        let child = try app.makeChild { builder in
            builder.register(TenantSettings.self, lifetime: .eagerSingleton) { _ in
                made.withLock { $0 += 1 }
                return TenantSettings(id: "eager")
            }
        }

        #expect(made.withLock { $0 } == 1)
        #expect(try child.resolve(TenantSettings.self).id == "eager")
        #expect(made.withLock { $0 } == 1)
    }

    // MARK: The parent's shutdown

    @Test func parentShutdownShutsItsChildrenDownFirst() throws {
        let journal = Journal()
        let app = try appBuilder(journal).build()
        let acme = try app.makeChild(tenant("acme"))
        _ = try acme.resolve(Billing.self)

        try app.shutdown()

        #expect(journal.all == ["Billing acme", "Store"])
        #expect(acme.isShuttingDown)
        let error = #expect(throws: GraftError.self) { try acme.resolve(Billing.self) }
        #expect(error?.code == .closed)
        #expect(error?.summary == "cannot resolve Billing: the container was shut down")
    }

    @Test func parentAsyncShutdownShutsItsChildrenDownFirst() async throws {
        let journal = Journal()
        let app = try await appBuilder(journal).build()
        let acme = try await app.makeChild(tenant("acme"))
        _ = try await acme.resolve(Billing.self)

        try await app.shutdown()

        #expect(journal.all == ["Billing acme", "Store"])
        #expect(acme.isShuttingDown)
    }

    @Test func makingAChildOfAShutDownContainerThrows() throws {
        let app = try appBuilder(Journal()).build()
        try app.shutdown()

        let error = #expect(throws: GraftError.self) { try app.makeChild(tenant("late")) }

        #expect(error?.code == .closed)
        #expect(error?.summary == "cannot make a child container: its parent was shut down")
    }

    @Test func aChildKeepsItsParentAlive() throws {
        weak var weakApp: Container?
        let child: Container
        do {
            let app = try appBuilder(Journal()).build()
            weakApp = app
            child = try app.makeChild(tenant("acme"))
        }
        #expect(weakApp != nil)
        #expect(try child.resolve(Billing.self).settings.id == "acme")
    }

    @Test func aChildLetGoIsNotKeptByItsParent() throws {
        let app = try appBuilder(Journal()).build()
        weak var weakChild: Container?
        do {
            let child = try app.makeChild(tenant("acme"))
            weakChild = child
            _ = try child.resolve(Billing.self)
        }
        #expect(weakChild == nil)
        try app.shutdown()
    }

    // MARK: Scopes under a child

    @Test func scopesOfAChildHoldTheParentsScopedServicesPerChildScope() throws {
        let journal = Journal()
        let app = try appBuilder(journal).build()
        let child = try app.makeChild { builder in
            tenant("acme")(&builder)
            builder.register(Invoice.self, lifetime: .scoped, using: Invoice.init(billing:context:))
        }

        let scope = child.makeScope()
        let invoice = try scope.resolve(Invoice.self)
        let context = try scope.resolve(RequestContext.self)
        let other = child.makeScope()

        #expect(invoice.context === context)
        #expect(try scope.resolve(Auditor.self).context === context)
        #expect(try other.resolve(RequestContext.self) !== context)
        #expect(try app.withScope { try $0.resolve(RequestContext.self) } !== context)
        try scope.close()
        #expect(journal.all == ["RequestContext", "RequestContext"])  // the parent's scope, then `scope`'s
        try other.close()
        #expect(journal.all.count == 3)
    }

    @Test func closingTheChildsScopeDisposesWhatTheParentMadeInIt() throws {
        let journal = Journal()
        let app = try appBuilder(journal).build()
        let child = try app.makeChild(tenant("acme"))

        try child.withScope { scope in _ = try scope.resolve(RequestContext.self) }

        #expect(journal.all == ["RequestContext"])
    }

    @Test func childShutdownClosesItsScopesAndTheirParentScopes() throws {
        let journal = Journal()
        let app = try appBuilder(journal).build()
        let child = try app.makeChild(tenant("acme"))
        let scope = child.makeScope()
        _ = try scope.resolve(RequestContext.self)

        try child.shutdown()

        #expect(scope.isClosed)
        #expect(journal.all == ["RequestContext"])
    }

    @Test func parentScopedServiceFromTheChildsRootIsReportedAsFromTheRoot() throws {
        let app = try appBuilder(Journal()).build()
        let child = try app.makeChild(tenant("acme"))

        let error = #expect(throws: GraftError.self) { try child.resolve(RequestContext.self) }

        #expect(error?.code == .scopedFromRoot)
    }

    // MARK: Collections

    @Test func collectionsInAChildHoldTheParentsRegistrationsThenTheChilds() throws {
        let app = try appBuilder(Journal()).build()
        let child = try app.makeChild { builder in
            builder.register((any Plugin).self) { _ in NamedPlugin(name: "tenant") }
            builder.register(PluginHost.self, using: PluginHost.init(plugins:))
        }

        #expect(try child.resolve(PluginHost.self).plugins.map(\.name) == ["app", "tenant"])
        #expect(try child.resolveAll((any Plugin).self).map(\.name) == ["app", "tenant"])
        #expect(try child.resolve((any Plugin).self).name == "tenant")
        #expect(try app.resolveAll((any Plugin).self).map(\.name) == ["app"])
    }

    @Test func resolveAllOfATypeOnlyTheParentRegistersIsTheParents() throws {
        let app = try appBuilder(Journal()).build()
        let child = try app.makeChild(tenant("acme"))

        #expect(try child.resolveAll(Region.self).map(\.name) == ["eu"])
        #expect(try child.resolveAll(String.self).isEmpty)
    }

    // MARK: Grandchildren

    @Test func aChildOfAChildSeesBoth() throws {
        let journal = Journal()
        let app = try appBuilder(journal).build()
        let acme = try app.makeChild(tenant("acme"))
        let team = try acme.makeChild { builder in
            builder.register(Invoice.self, lifetime: .scoped, using: Invoice.init(billing:context:))
        }

        let invoice = try team.withScope { try $0.resolve(Invoice.self) }

        #expect(invoice.billing === (try acme.resolve(Billing.self)))
        #expect(invoice.billing.store === (try app.resolve(Store.self)))
        try app.shutdown()
        #expect(team.isShuttingDown)
        #expect(journal.all == ["RequestContext", "Billing acme", "Store"])
    }

    // MARK: Validation

    @Test func missingDependencyIsReportedWithTheSameReportAsBuild() throws {
        let app = try appBuilder(Journal()).build()

        let error = #expect(throws: GraftError.self) {
            try app.makeChild { builder in
                builder.register(Billing.self, lifetime: .singleton, using: Billing.init(settings:store:journal:))
            }
        }

        #expect(error?.code == .invalidGraph)
        #expect(error?.summary == "makeChild() found 1 problem")
        #expect(error?.problems.map(\.code) == [.missingDependency])
        #expect(error?.problems.first?.summary == "no registration for TenantSettings, which Billing needs")
        #expect(error?.problems.first?.path == ["Billing", "TenantSettings"])
    }

    @Test func cycleInTheChildIsReported() throws {
        let app = try appBuilder(Journal()).build()

        let error = #expect(throws: GraftError.self) {
            try app.makeChild { builder in
                builder.register(TenantSettings.self, using: { (_: Billing) in TenantSettings(id: "loop") })
                builder.register(Billing.self, using: Billing.init(settings:store:journal:))
            }
        }

        #expect(error?.problems.map(\.code) == [.cycle])
        #expect(error?.problems.first?.summary == "dependency cycle: TenantSettings → Billing → TenantSettings")
    }

    @Test func childSingletonHoldingAParentScopedServiceIsCaptive() throws {
        let app = try appBuilder(Journal()).build()

        let error = #expect(throws: GraftError.self) {
            try app.makeChild { builder in
                tenant("acme")(&builder)
                builder.register(Invoice.self, lifetime: .singleton, using: Invoice.init(billing:context:))
            }
        }

        let problem = error?.problems.first
        #expect(error?.problems.map(\.code) == [.captiveDependency])
        #expect(problem?.summary == "captive dependency: Invoice (.singleton) depends on RequestContext (.scoped)")
        #expect(problem?.path == ["Invoice", "RequestContext"])
    }

    @Test func captiveThroughAParentTransientIsReportedWithItsPath() throws {
        let app = try appBuilder(Journal()).build()

        let error = #expect(throws: GraftError.self) {
            try app.makeChild { builder in
                builder.register(
                    TenantSettings.self,
                    lifetime: .singleton,
                    using: { (_: Auditor) in TenantSettings(id: "x") }
                )
            }
        }

        let problem = error?.problems.first
        #expect(error?.problems.map(\.code) == [.captiveDependency])
        #expect(
            problem?.summary == "captive dependency: TenantSettings (.singleton) depends on RequestContext (.scoped)"
        )
        #expect(problem?.path == ["TenantSettings", "Auditor", "RequestContext"])
        #expect(error?.description.contains("resolving: TenantSettings → Auditor → RequestContext") == true)
    }

    @Test func reportReadsAsTheArticleShows() throws {
        let app = try appBuilder(Journal()).build()

        let error = #expect(throws: GraftError.self) {
            try app.makeChild { builder in
                builder.register(Invoice.self, lifetime: .singleton, using: Invoice.init(billing:context:))
            }
        }

        #expect(
            error?.description.hasPrefix(
                """
                Graft: makeChild() found 2 problems
                  1. no registration for Billing, which Invoice needs
                     resolving: Invoice → Billing
                """
            ) == true
        )
        #expect(
            error?.description.contains(
                """
                  2. captive dependency: Invoice (.singleton) depends on RequestContext (.scoped)
                     resolving: Invoice → RequestContext
                """
            ) == true
        )
    }

    @Test func childMayDependOnItsOwnOverrideOfAParentService() throws {
        let app = try appBuilder(Journal()).build()
        // The parent's Clock depends on the parent's Region; a child Region changes nothing there.
        let child = try app.makeChild { builder in
            builder.register(Region.self, lifetime: .scoped) { _ in Region(name: "scoped") }
            builder.register(
                TenantSettings.self,
                lifetime: .singleton,
                using: { (clock: Clock) in
                    TenantSettings(id: clock.region.name)
                }
            )
        }

        #expect(try child.resolve(TenantSettings.self).id == "eu")
    }

    @Test func eagerSingletonFailureIsReportedByMakeChild() throws {
        struct Broken: Error {}
        let app = try appBuilder(Journal()).build()

        let error = #expect(throws: GraftError.self) {
            try app.makeChild { builder in
                builder.register(TenantSettings.self, lifetime: .eagerSingleton) { _ in throw Broken() }
            }
        }

        #expect(error?.summary == "makeChild() found 1 problem")
        #expect(error?.problems.map(\.code) == [.eagerSingletonFailed])
    }

    // MARK: Overriding, scope values, lifecycle

    @Test func overridingAChildMakesAnotherChildOfTheSameParent() throws {
        let app = try appBuilder(Journal()).build()
        let acme = try app.makeChild(tenant("acme"))

        let test = try acme.overriding { $0.register(TenantSettings.self, instance: TenantSettings(id: "test")) }

        #expect(test.parent === app)
        #expect(try test.resolve(Billing.self).settings.id == "test")
        #expect(try test.resolve(Billing.self).store === app.resolve(Store.self))
        #expect(try acme.resolve(Billing.self).settings.id == "acme")
    }

    @Test func scopeValuesTheParentDeclaresAreGivenThroughAChildsScopes() throws {
        struct RequestID: Sendable { let value: String }
        struct Trace: Sendable { let id: RequestID }
        struct Handler: Sendable {
            let trace: Trace
            let settings: TenantSettings
        }
        var builder = appBuilder(Journal())
        builder.registerScopeValue(RequestID.self)
        builder.register(Trace.self, lifetime: .scoped, using: Trace.init(id:))
        let app = try builder.build()
        let child = try app.makeChild { builder in
            builder.register(TenantSettings.self, instance: TenantSettings(id: "acme"))
            builder.register(Handler.self, lifetime: .scoped, using: Handler.init(trace:settings:))
        }

        // A request's scope, as the integrations open one, is given what the parent declares (the
        // lease closes it when released).
        let request = try RequestScopes(child, values: RequestID.self).open(providing: RequestID(value: "req")) { _ in }
        #expect(try request.scope.resolve(Handler.self).trace.id.value == "req")
        let scope = try child.makeScope(providing: RequestID(value: "7f3a"))
        #expect(try scope.resolve(Handler.self).trace.id.value == "7f3a")
        #expect(try scope.resolve(RequestID.self).value == "7f3a")
        // A scope under it sees the value, as under any scope.
        #expect(try scope.makeScope().resolve(Trace.self).id.value == "7f3a")
        let error = #expect(throws: GraftError.self) { try child.makeScope(providing: Region(name: "x")) }
        #expect(error?.summary == "Region was given to a scope but is not declared as a scope value")
        try scope.close()
    }

    @Test func childStartsAndStopsItsOwnServices() async throws {
        let journal = Journal()
        let app = try await appBuilder(journal).build()
        let child = try await app.makeChild { builder in
            tenant("acme")(&builder)
            builder.onStart(Billing.self) { billing in billing.journal.write("start \(billing.settings.id)") }
            builder.onStop(Billing.self) { billing in billing.journal.write("stop \(billing.settings.id)") }
        }

        try await child.start()
        try await app.shutdown()

        #expect(journal.all == ["start acme", "stop acme", "Billing acme", "Store"])
    }

    @Test func childsHookOnAParentServiceIsReported() throws {
        let app = try appBuilder(Journal()).build()

        let error = #expect(throws: GraftError.self) {
            try app.makeChild { builder in builder.onStart(Store.self) { _ in } }
        }

        #expect(error?.problems.map(\.code) == [.invalidLifecycleHook])
        #expect(error?.problems.first?.summary.contains("start hook for Store (") == true)
        #expect(error?.problems.first?.summary.hasSuffix("), which the parent container registers") == true)
    }

    // MARK: Async

    @Test func parentServiceNeedingAwaitIsReportedBySyncMakeChildAndMadeByAsync() async throws {
        var builder = ContainerBuilder()
        builder.register(Store.self, lifetime: .singleton) { _ async in Store(journal: Journal()) }
        builder.register(Journal.self, instance: Journal())
        let app = try await builder.build()
        let register: (inout ContainerBuilder) -> Void = { builder in
            builder.register(TenantSettings.self, instance: TenantSettings(id: "acme"))
            builder.register(Billing.self, lifetime: .singleton, using: Billing.init(settings:store:journal:))
        }

        let error = #expect(throws: GraftError.self) { try Self.makeChildSynchronously(of: app, register) }
        #expect(error?.problems.map(\.code) == [.needsAwait])
        #expect(error?.problems.first?.summary == "Billing depends on Store of the parent container, which needs await")

        let child = try await app.makeChild(register)
        let store = try await app.resolve(Store.self)
        #expect(try await child.resolve(Billing.self).store === store)
    }

    private static func makeChildSynchronously(
        of container: Container,
        _ configure: (inout ContainerBuilder) -> Void
    ) throws -> Container {
        try container.makeChild(configure)
    }

    @Test func asyncResolvesThroughAChild() async throws {
        var builder = appBuilder(Journal())
        builder.register(String.self) { _ async in "awaited" }
        let app = try await builder.build()
        let child = try await app.makeChild(tenant("acme"))

        #expect(try await child.resolve(String.self) == "awaited")
        #expect(try await child.resolve(Billing.self).settings.id == "acme")
        #expect(try await child.resolveAll(Region.self).map(\.name) == ["eu"])
        let context = try await child.withScope { scope in try await scope.resolve(RequestContext.self) }
        #expect(context.journal === (try await app.resolve(Journal.self)))
    }

    // MARK: Graph export

    @Test func graphExportShowsTheChildsGraphWithParentServicesMarked() throws {
        let app = try appBuilder(Journal()).build()
        let child = try app.makeChild(tenant("acme"))

        let dot = child.exportGraph(as: .dot)

        #expect(dot.contains("Billing\\n.singleton"))
        #expect(dot.contains("Store\\n.singleton, parent"))
        #expect(!dot.contains("ParentScopeLink"))
        #expect(!dot.contains("RequestContext"))
    }

    // MARK: Concurrency

    @Test func manyChildrenMadeAndResolvedConcurrently() async throws {
        let journal = Journal()
        let app = try await appBuilder(journal).build()
        let tenants = 200

        let stores = try await withThrowingTaskGroup(of: (Store, Billing, Billing).self) { group in
            for index in 0..<tenants {
                group.addTask {
                    let child = try app.makeChild(tenant("t\(index)"))
                    let first = try child.resolve(Billing.self)
                    let again = try child.withScope { try $0.resolve(Billing.self) }
                    _ = try child.withScope { try $0.resolve(RequestContext.self) }
                    try child.shutdown()
                    return (try child.parent!.resolve(Store.self), first, again)
                }
            }
            var results: [(Store, Billing, Billing)] = []
            for try await result in group { results.append(result) }
            return results
        }

        #expect(stores.count == tenants)
        #expect(Set(stores.map { ObjectIdentifier($0.0) }).count == 1)
        #expect(stores.allSatisfy { $0.1 === $0.2 })
        #expect(Set(stores.map { ObjectIdentifier($0.1) }).count == tenants)
        #expect(journal.all.filter { $0.hasPrefix("Billing") }.count == tenants)
        #expect(journal.all.filter { $0 == "RequestContext" }.count == tenants)
        #expect(!journal.all.contains("Store"))
    }

    @Test func oneChildResolvedFromManyThreadsMakesItsSingletonOnce() async throws {
        let app = try await appBuilder(Journal()).build()
        let child = try await app.makeChild(tenant("acme"))

        let ids = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<500 {
                group.addTask { ObjectIdentifier(try child.resolve(Billing.self)) }
            }
            var ids = Set<ObjectIdentifier>()
            for try await id in group { ids.insert(id) }
            return ids
        }

        #expect(ids.count == 1)
    }

    /// A child made before the parent's shutdown is shut down with it, what it made disposed
    /// once; one asked for while the shutdown is under way (held in a `dispose()` of the
    /// parent's) or after it is refused with an error that says why, or, if made, is shut down.
    @Test func childrenMadeWhileTheParentShutsDownAreShutDownOrRefused() async throws {
        let journal = Journal()
        let gatekeeper = Gatekeeper()
        var builder = appBuilder(journal)
        builder.register(Gatekeeper.self, instance: gatekeeper)
        builder.register(Turnstile.self, lifetime: .singleton, using: Turnstile.init(gatekeeper:))
        let app = try await builder.build()
        let before = try await app.makeChild(tenant("before"))
        _ = try await before.resolve(Billing.self)
        _ = try await app.resolve(Turnstile.self)

        let shuttingDown = OnThread { Result { () throws(GraftError) in try app.shutdown() } }
        await gatekeeper.began.wait()
        #expect(app.isShuttingDown)
        let during: Result<Container, any Error>
        do { during = .success(try await app.makeChild(tenant("during"))) } catch { during = .failure(error) }
        gatekeeper.finish.open()
        switch await shuttingDown.value() {
        case .success: break
        case .failure(let error): Issue.record(error, "the parent's shutdown threw")
        case nil: Issue.record("the parent's shutdown never returned")
        }
        let after: Result<Container, any Error>
        do { after = .success(try await app.makeChild(tenant("after"))) } catch { after = .failure(error) }

        #expect(before.isShuttingDown)
        #expect(journal.all.filter { $0 == "Billing before" }.count == 1)
        for outcome in [during, after] {
            switch outcome {
            case .success(let child):
                #expect(child.isShuttingDown)
                #expect(throws: GraftError.withCode(.closed)) { try child.resolve(Billing.self) }
            case .failure(let error):
                // `configure` throws nothing here, so what makeChild throws is Graft's.
                let error = error as? GraftError
                #expect(error?.code == .closed)
                #expect(error?.summary == "cannot make a child container: its parent was shut down")
            }
        }
        #expect(!journal.all.contains { $0 == "Billing during" || $0 == "Billing after" })
        #expect(journal.all.filter { $0 == "Store" }.count == 1)
    }
}

/// A parent singleton whose `dispose()` holds the parent's shutdown until the test lets it go.
private final class Gatekeeper: Sendable {
    let began = ThreadLatch()
    let finish = ThreadLatch()
}

private final class Turnstile: Disposable {
    let gatekeeper: Gatekeeper
    init(gatekeeper: Gatekeeper) { self.gatekeeper = gatekeeper }
    func dispose() {
        gatekeeper.began.open()
        gatekeeper.finish.waitBlocking("the go-ahead for the parent's shutdown")
    }
}

private struct Seat: Sendable {
    let row: Int
    let region: Region
}

private struct Booking: Sendable {
    let seats: Factory<Seat, Int>
}

@Suite struct ChildContainerArgumentTests {
    @Test func parentServiceTakingRuntimeArgumentsThroughAChild() throws {
        var builder = appBuilder(Journal())
        builder.register(Seat.self, arguments: Int.self, using: Seat.init(row:region:))
        let app = try builder.build()
        let child = try app.makeChild { builder in
            builder.register(Region.self, instance: Region(name: "child"))
            builder.register(Booking.self, using: Booking.init(seats:))
        }

        let seat = try child.resolve(Booking.self).seats.make(7)

        #expect(seat.row == 7)
        #expect(seat.region.name == "eu")
        #expect(try child.resolve(Seat.self, arguments: 3).row == 3)
    }

    @Test func resolveWithArgumentsOfAParentServiceTheChildDoesNotReach() async throws {
        var builder = appBuilder(Journal())
        builder.register(Seat.self, arguments: Int.self, using: Seat.init(row:region:))
        let app = try await builder.build()
        let child = try await app.makeChild { $0.register(TenantSettings.self, instance: TenantSettings(id: "acme")) }

        #expect(try await child.resolve(Seat.self, arguments: 5).row == 5)
        #expect(try Self.resolveSynchronously(child, 4) == 4)
        #expect(try Self.resolveInScope(child, 6) == 6)
    }

    private static func resolveSynchronously(_ container: Container, _ row: Int) throws -> Int {
        try container.resolve(Seat.self, arguments: row).row
    }

    private static func resolveInScope(_ container: Container, _ row: Int) throws -> Int {
        try container.withScope { try $0.resolve(Seat.self, arguments: row).row }
    }
}
