import Dispatch
import Foundation
import Graft
import Testing

private enum Session: ScopeTag {}
private enum Tenant: ScopeTag {}

/// A session's shopping cart, disposed when its session closes.
private final class Cart: Disposable {
    let disposals = Counter()
    let made: Counter?

    init(made: Counter? = nil) {
        self.made = made
        made?.increment()
    }

    func dispose() { disposals.increment() }
}

/// One request's work, holding the session's cart.
private final class Checkout: Sendable {
    let cart: Cart
    init(cart: Cart) { self.cart = cart }
}

/// A plain per-scope service.
private final class RequestLog: Disposable {
    let disposals = Counter()
    func dispose() { disposals.increment() }
}

/// What a cart uses while it lives: made (and owned) by the cart's session.
private final class PriceList: Disposable {
    let disposals = Counter()
    func dispose() { disposals.increment() }
}

private final class PricedCart: Sendable {
    let prices: PriceList
    init(prices: PriceList) { self.prices = prices }
}

private final class TenantSettings: Sendable {}

private final class SessionCache: Sendable {
    let settings: TenantSettings
    init(settings: TenantSettings) { self.settings = settings }
}

private struct TenantID: Sendable, Equatable {
    let name: String
}

private final class TenantDatabase: Sendable {
    let tenant: TenantID
    init(tenant: TenantID) { self.tenant = tenant }
}

private final class Catalogue: Sendable {}

private final class Holder: Sendable {
    init(cart: Cart) {}
}

private final class Wrapper: Sendable {
    init(checkout: Checkout) {}
}

/// Runs `body` on a thread of its own, outside any task, and returns what it returned.
private func outsideAnyTask<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
    let result = Guarded<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.withLock { $0 = body() }
        done.signal()
    }
    thread.start()
    done.wait()
    return result.current!
}

private func sessionBuilder(made: Counter? = nil) -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.register(Cart.self, lifetime: .scoped(in: Session.self)) { _ in
        pause(microseconds: 200)
        return Cart(made: made)
    }
    builder.register(Checkout.self, lifetime: .scoped, using: Checkout.init(cart:))
    builder.register(RequestLog.self, lifetime: .scoped, using: RequestLog.init)
    return builder
}

@Suite struct TaggedScopesShareWithinTheirTag {
    @Test func everyScopeUnderASessionGetsTheSessionsInstance() throws {
        let container = try sessionBuilder().build()
        let session = container.makeScope(tagged: Session.self)
        let first = session.makeScope()
        let second = session.makeScope()
        let nested = first.makeScope()

        let cart = try first.resolve(Cart.self)
        #expect(try second.resolve(Cart.self) === cart)
        #expect(try nested.resolve(Cart.self) === cart)
        #expect(try session.resolve(Cart.self) === cart)
        // A plain scoped service that holds it is per request, the cart per session.
        let checkout = try first.resolve(Checkout.self)
        #expect(try second.resolve(Checkout.self) !== checkout)
        #expect(checkout.cart === cart)
        try session.close()
    }

    @Test func eachSessionScopeHasItsOwnInstance() throws {
        let container = try sessionBuilder().build()
        let alice = container.makeScope(tagged: Session.self)
        let bob = container.makeScope(tagged: Session.self)

        let aliceCart = try alice.makeScope().resolve(Cart.self)
        let bobCart = try bob.makeScope().resolve(Cart.self)

        #expect(aliceCart !== bobCart)
        try alice.close()
        try bob.close()
    }

    @Test func theInstanceIsDisposedWhenItsTaggedScopeClosesAndNotBefore() throws {
        var builder = sessionBuilder()
        builder.register(PriceList.self, using: PriceList.init)
        builder.register(PricedCart.self, lifetime: .scoped(in: Session.self), using: PricedCart.init(prices:))
        let container = try builder.build()
        let session = container.makeScope(tagged: Session.self)
        let request = session.makeScope()
        let cart = try request.resolve(Cart.self)
        // Its transient dependency is made for the session's instance, so the session owns it.
        let prices = try request.resolve(PricedCart.self).prices
        let log = try request.resolve(RequestLog.self)

        try request.close()
        #expect(log.disposals.value == 1)
        #expect(cart.disposals.value == 0)
        #expect(prices.disposals.value == 0)
        #expect(try session.makeScope().resolve(Cart.self) === cart)

        try session.close()
        #expect(cart.disposals.value == 1)
        #expect(prices.disposals.value == 1)
    }

    @Test func theNearestEnclosingScopeWithTheTagWins() throws {
        var builder = sessionBuilder()
        builder.register(TenantSettings.self, lifetime: .scoped(in: Tenant.self), using: TenantSettings.init)
        builder.register(SessionCache.self, lifetime: .scoped(in: Session.self), using: SessionCache.init(settings:))
        let container = try builder.build()
        let tenant = container.makeScope(tagged: Tenant.self)
        let outer = tenant.makeScope(tagged: Session.self)
        let inner = outer.makeScope(tagged: Session.self)
        let otherSession = tenant.makeScope(tagged: Session.self)

        // A session inside a session has its own cart; each request sees its nearest session's.
        let outerCart = try outer.makeScope().resolve(Cart.self)
        let innerCart = try inner.makeScope().resolve(Cart.self)
        #expect(outerCart !== innerCart)
        #expect(try inner.resolve(Cart.self) === innerCart)
        // Every session of one tenant shares the tenant's settings.
        let cache = try inner.makeScope().resolve(SessionCache.self)
        #expect(try otherSession.resolve(SessionCache.self) !== cache)
        #expect(try otherSession.resolve(SessionCache.self).settings === cache.settings)
        #expect(try tenant.resolve(TenantSettings.self) === cache.settings)
        try tenant.close()
    }

    @Test func aTaggedScopeCanBeGivenValues() throws {
        var builder = ContainerBuilder()
        builder.registerScopeValue(TenantID.self)
        builder.register(TenantDatabase.self, lifetime: .scoped(in: Tenant.self), using: TenantDatabase.init(tenant:))
        let container = try builder.build()
        let acme = try container.makeScope(tagged: Tenant.self, providing: TenantID(name: "acme"))
        let globex = try container.makeScope(tagged: Tenant.self, providing: TenantID(name: "globex"))

        let database = try acme.makeScope().resolve(TenantDatabase.self)
        #expect(database.tenant == TenantID(name: "acme"))
        #expect(try acme.makeScope().resolve(TenantDatabase.self) === database)
        #expect(try globex.makeScope().resolve(TenantDatabase.self).tenant == TenantID(name: "globex"))
        let nested = try acme.makeScope(tagged: Session.self, providing: TenantID(name: "acme-eu"))
        #expect(try nested.resolve(TenantDatabase.self) === database)
        try acme.close()
        try globex.close()
    }

    @Test func withScopeTaggedClosesTheScope() throws {
        let container = try sessionBuilder().build()
        let cart = try container.withScope(tagged: Session.self) { session in
            try session.makeScope().resolve(Cart.self)
        }
        #expect(cart.disposals.value == 1)
    }

    @Test func aResolveUnderContentionMakesOneInstance() throws {
        let made = Counter()
        let container = try sessionBuilder(made: made).build()
        let session = container.makeScope(tagged: Session.self)
        let carts = Guarded([Cart]())

        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let request = session.makeScope()
            let cart = try? request.resolve(Checkout.self).cart
            if let cart { carts.withLock { $0.append(cart) } }
            try? request.close()
        }

        #expect(made.value == 1)
        #expect(carts.current.count == 64)
        #expect(carts.current.distinctCount == 1)
        try session.close()
        #expect(carts.current.first?.disposals.value == 1)
    }

    /// Four sessions' creations are under way at once (each factory waits until all four have
    /// begun: one session's creation never holds up another's), and a second request of each
    /// session resolves meanwhile: each session ends with one cart, its own, disposed when the
    /// session closes. Whether the second request waits for the creation or comes after it is up
    /// to the scheduler; it gets the session's cart either way.
    @Test func aResolveUnderContentionMakesOneInstancePerSession() async throws {
        let made = Counter()
        let allFourBegun = ThreadBarrier(parties: 4)
        let go = ThreadLatch()
        var builder = ContainerBuilder()
        builder.register(Cart.self, lifetime: .scoped(in: Session.self)) { _ in
            if made.increment() <= 4 {
                allFourBegun.arriveAndWait()
                go.waitBlocking("the go-ahead for the sessions' carts")
            }
            return Cart()
        }
        let container = try await builder.build()
        let sessions = (0..<4).map { _ in container.makeScope(tagged: Session.self) }

        func resolveInANewRequest(of session: Scope) -> OnThread<Result<Cart, GraftError>> {
            OnThread {
                let request = session.makeScope()
                defer { try? request.close() }
                return Result { () throws(GraftError) -> Cart in try request.resolve(Cart.self) }
            }
        }
        let firsts = sessions.map(resolveInANewRequest(of:))
        await waitUntil("every session's creation has begun") { allFourBegun.count == 4 }
        let seconds = sessions.map(resolveInANewRequest(of:))
        go.open()

        var carts: [[Cart]] = []
        for (first, second) in zip(firsts, seconds) {
            carts.append([try #require(await first.value()).get(), try #require(await second.value()).get()])
        }
        #expect(made.value == 4)
        #expect(carts.map(\.distinctCount) == [1, 1, 1, 1])
        #expect(carts.map(\.[0]).distinctCount == 4)
        for (session, pair) in zip(sessions, carts) {
            #expect(try syncResolve(Cart.self, from: session.makeScope()) === pair[0])
            #expect(pair[0].disposals.value == 0)
            try await session.close()
            #expect(pair[0].disposals.value == 1)
        }
    }

    /// Every request of a session resolves its cart while the session's one creation is held:
    /// they all get the one cart it made.
    @Test func asyncResolvesShareTheSessionsInstance() async throws {
        let made = Counter()
        let go = Latch()
        let begun = Latch()
        var builder = ContainerBuilder()
        builder.register(Cart.self, lifetime: .scoped(in: Session.self)) { _ async throws in
            begun.open()
            await go.wait()
            return Cart(made: made)
        }
        builder.register(Checkout.self, lifetime: .scoped, using: Checkout.init(cart:))
        let container = try await builder.build()

        let cart = try await container.withScope(tagged: Session.self) { session in
            let requestsStarted = Countdown(32)
            let carts = try await withThrowingTaskGroup(of: Cart.self) { group in
                for _ in 0..<32 {
                    group.addTask {
                        let request = session.makeScope()
                        requestsStarted.arrive()
                        let cart = try await request.resolve(Checkout.self).cart
                        try await request.close()
                        return cart
                    }
                }
                await begun.wait()
                await requestsStarted.wait()
                go.open()
                return try await group.reduce(into: [Cart]()) { $0.append($1) }
            }
            #expect(carts.count == 32)
            #expect(carts.distinctCount == 1)
            #expect(carts.first?.disposals.value == 0)
            return carts[0]
        }
        #expect(made.value == 1)
        #expect(cart.disposals.value == 1)
    }

    @Test func theGraphExportShowsTheTag() throws {
        let container = try sessionBuilder().build()
        #expect(container.exportGraph(as: .dot).contains("Cart\\n.scoped(in: Session)"))
        #expect(container.exportGraph(as: .mermaid).contains("Cart<br/>.scoped(in: Session)"))
        #expect(Lifetime.scoped(in: Session.self).description == ".scoped(in: Session)")
        #expect(Lifetime.scoped(in: Session.self) != .scoped(in: Tenant.self))
        #expect(Lifetime.scoped(in: Session.self) != .scoped)
        #expect(Lifetime.scoped(in: Session.self).name == "scoped")
    }

    /// `.scoped(in:)` is a `Lifetime` like the others: a helper that takes one passes it on.
    @Test func aHelperTakingALifetimeCanPassATaggedOne() throws {
        func registerCart(_ lifetime: Lifetime, in builder: inout ContainerBuilder) {
            builder.register(Cart.self, lifetime: lifetime) { _ in Cart() }
        }
        var builder = ContainerBuilder()
        registerCart(.scoped(in: Session.self), in: &builder)
        let container = try builder.build()
        let session = container.makeScope(tagged: Session.self)
        let cart = try session.makeScope().resolve(Cart.self)
        #expect(try session.makeScope().resolve(Cart.self) === cart)
        try container.shutdown()
    }

    @Test func observersSeeTheTag() throws {
        let lifetimes = Guarded([Lifetime]())
        var builder = ContainerBuilder()
        builder.addObserver(ClosureObserver(didCreate: { event in lifetimes.withLock { $0.append(event.lifetime) } }))
        builder.register(Cart.self, lifetime: .scoped(in: Session.self)) { _ in Cart() }
        let container = try builder.build()
        _ = try container.makeScope(tagged: Session.self).resolve(Cart.self)
        #expect(lifetimes.withLock { $0 } == [.scoped(in: Session.self)])
        #expect(lifetimes.withLock { $0 }.map(\.description) == [".scoped(in: Session)"])
        try container.shutdown()
    }
}

@Suite struct TaggedScopeMistakes {
    @Test func resolvingFromTheRootContainerNamesTheTag() throws {
        let container = try sessionBuilder().build()

        let error = outsideAnyTask { () -> GraftError? in
            do {
                _ = try container.resolve(Cart.self)
                return nil
            } catch let error as GraftError {
                return error
            } catch {
                return nil
            }
        }

        #expect(error?.code == .noTaggedScope)
        #expect(error?.summary == "Cart is .scoped(in: Session) and cannot be resolved from the root container")
        #expect(
            error?.hints == [
                "make the scopes that resolve it under a Session scope: let scope = container.makeScope(tagged: "
                    + "Session.self), then scope.makeScope() for each unit of work under it",
                "or resolve it within one: try container.withScope(tagged: Session.self) { try $0.resolve(Cart.self) }",
            ]
        )
    }

    @Test func resolvingFromAScopeWithoutTheTagNamesTheTagAndThePath() throws {
        let container = try sessionBuilder().build()
        let request = container.makeScope()

        let error = #expect(throws: GraftError.self) { try request.resolve(Checkout.self) }

        #expect(error?.code == .noTaggedScope)
        #expect(
            error?.description.hasPrefix(
                """
                Graft: Cart is .scoped(in: Session), but neither its scope nor any scope it was made under is tagged Session
                  resolving: Checkout → Cart
                """
            ) == true
        )
        try request.close()
    }

    @Test func scopesNestedTheWrongWayRoundAreNamed() throws {
        var builder = sessionBuilder()
        builder.register(SessionCache.self, lifetime: .scoped(in: Session.self), using: SessionCache.init(settings:))
        builder.register(TenantSettings.self, lifetime: .scoped(in: Tenant.self), using: TenantSettings.init)
        let container = try builder.build()
        let session = container.makeScope(tagged: Session.self)
        let tenant = session.makeScope(tagged: Tenant.self)

        let error = #expect(throws: GraftError.self) { try tenant.makeScope().resolve(SessionCache.self) }

        #expect(error?.code == .noTaggedScope)
        // The session's cache is found; what it needs of the tenant is looked for from the session.
        #expect(
            error?.summary
                == "TenantSettings is .scoped(in: Tenant), but neither its scope nor any scope it was made under is tagged Tenant"
        )
        #expect(error?.path == ["SessionCache", "TenantSettings"])
        #expect(
            error?.hints.last
                == "the scopes it was resolved in are tagged Session; a Tenant scope must enclose them, not the other way round"
        )
        try session.close()
    }

    /// Synchronous code inside a task (a synchronous function an async one calls) is told the
    /// synchronous form, which is what compiles where it is written.
    @Test func aSynchronousResolveIsToldTheSynchronousFormEvenInsideATask() async throws {
        let container = try await sessionBuilder().build()

        let error = #expect(throws: GraftError.self) { try syncResolve(Cart.self, from: container) }

        #expect(
            error?.hints.last
                == "or resolve it within one: try container.withScope(tagged: Session.self) { try $0.resolve(Cart.self) }"
        )
    }

    @Test func anAsyncResolveIsToldTheAsyncForm() async throws {
        let container = try await sessionBuilder().build()
        let asyncForm =
            "or resolve it within one: try await container.withScope(tagged: Session.self) { try await $0.resolve(Cart.self) }"

        let fromTheRoot = await #expect(throws: GraftError.self) { try await container.resolve(Cart.self) }
        let fromAScope = await #expect(throws: GraftError.self) { try await container.makeScope().resolve(Cart.self) }

        #expect(fromTheRoot?.summary == "Cart is .scoped(in: Session) and cannot be resolved from the root container")
        #expect(fromTheRoot?.hints.last == asyncForm)
        #expect(fromAScope?.code == .noTaggedScope)
        #expect(fromAScope?.hints.last == asyncForm)
    }

    @Test func aSingletonResolvingItWhileBeingCreatedIsCaptive() throws {
        var builder = sessionBuilder()
        builder.register(Holder.self, lifetime: .singleton) { r in Holder(cart: try r.resolve(Cart.self)) }
        let container = try builder.build()
        let session = container.makeScope(tagged: Session.self)

        let error = #expect(throws: GraftError.self) { try session.resolve(Holder.self) }

        #expect(error?.code == .captiveDependency)
        #expect(
            error?.summary
                == "captive dependency: Holder (.singleton) resolved Cart (.scoped(in: Session)) while being created"
        )
        #expect(
            error?.hints == [
                "a .singleton outlives each .scoped(in: Session) instance; make Holder .scoped(in: Session), "
                    + "or make Cart live as long"
            ]
        )
        try session.close()
    }
}

@Suite struct TaggedScopesAreChecked {
    @Test func aSingletonDependingOnATaggedServiceIsCaptive() {
        var builder = sessionBuilder()
        builder.register(Holder.self, lifetime: .singleton, using: Holder.init(cart:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. captive dependency: Holder (.singleton) depends on Cart (.scoped(in: Session))
                     resolving: Holder → Cart
                     a .singleton outlives each .scoped(in: Session) instance; make Holder .scoped(in: Session) or shorter-lived, or make Cart live as long
                """
        )
    }

    @Test func aTaggedServiceDependingOnAPlainScopedOneIsCaptive() {
        var builder = sessionBuilder()
        builder.register(Wrapper.self, lifetime: .scoped(in: Session.self), using: Wrapper.init(checkout:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. captive dependency: Wrapper (.scoped(in: Session)) depends on Checkout (.scoped)
                     resolving: Wrapper → Checkout
                     a .scoped(in: Session) outlives each .scoped instance; make Wrapper .scoped or shorter-lived, or make Checkout live as long
                """
        )
    }

    @Test func aTaggedServiceReachingAPlainScopedOneThroughTransientsIsCaptive() {
        var builder = sessionBuilder()
        builder.register(Catalogue.self, using: { (_: Checkout) in Catalogue() })
        builder.register(PricedCart.self, lifetime: .scoped(in: Session.self)) { _ in PricedCart(prices: PriceList()) }
        builder.register(
            Holder.self,
            lifetime: .scoped(in: Tenant.self),
            using: { (_: Catalogue) in Holder(cart: Cart()) }
        )

        let problems = builder.validate()

        #expect(
            problems.map(\.summary) == [
                "captive dependency: Holder (.scoped(in: Tenant)) depends on Checkout (.scoped)"
            ]
        )
        #expect(problems.first?.path == ["Holder", "Catalogue", "Checkout"])
    }

    @Test func whatLivesAtLeastAsLongIsNotCaptive() {
        var builder = sessionBuilder()
        builder.registerScopeValue(TenantID.self)
        builder.register(TenantSettings.self, lifetime: .singleton, using: TenantSettings.init)
        // Another tag's: which encloses which is decided where scopes are made, and checked there.
        builder.register(SessionCache.self, lifetime: .scoped(in: Tenant.self), using: SessionCache.init(settings:))
        builder.register(TenantDatabase.self, lifetime: .scoped(in: Session.self), using: TenantDatabase.init(tenant:))
        builder.register(Holder.self, lifetime: .scoped(in: Tenant.self), using: Holder.init(cart:))
        builder.register(PriceList.self, using: PriceList.init)
        builder.register(PricedCart.self, lifetime: .scoped(in: Session.self), using: PricedCart.init(prices:))

        #expect(builder.validate().isEmpty)
    }

    @Test func replacingAPlainScopedRegistrationWithATaggedOneChangesItsLifetime() {
        var builder = ContainerBuilder()
        builder.rejectsLifetimeChangingReplacements = true
        builder.register(Cart.self, lifetime: .scoped) { _ in Cart() }
        builder.register(Cart.self, lifetime: .scoped(in: Session.self)) { _ in Cart() }

        #expect(builder.validate().map(\.code) == [.lifetimeReplaced])
        #expect(builder.replacements.first?.description.hasSuffix("(.scoped(in: Session))") == true)
    }
}
