import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

private enum Tenant: ScopeTag {}

/// Numbers the instances made, so a response tells which one a request got.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}

/// Shared by every request of a tenant.
private struct TenantCache: Sendable {
    let number: Int
    init(counter: Counter) { number = counter.next() }
}

/// Made for each request.
private struct Basket: Sendable {
    let number: Int
    let cache: TenantCache
    init(counter: Counter, cache: TenantCache) {
        number = counter.next()
        self.cache = cache
    }
}

/// A middleware made under a tenant's scope: each request's scope is the tenant's child, so the
/// tenant's `.scoped(in:)` instances are shared by its requests and the requests' own are not.
@Suite(.timeLimit(.minutes(1))) struct RequestScopesUnderATenantTests {
    @Test func requestsUnderATenantShareItsInstancesAndKeepTheirOwn() async throws {
        var builder = ContainerBuilder()
        builder.register(Counter.self, instance: Counter())
        builder.register(TenantCache.self, lifetime: .scoped(in: Tenant.self), using: TenantCache.init(counter:))
        builder.register(Basket.self, lifetime: .scoped, using: Basket.init(counter:cache:))
        let container = try await builder.build()
        let acme = container.makeScope(tagged: Tenant.self)
        let router = Router(context: BasicGraftRequestContext.self)
        router.group("acme").add(middleware: RequestScopeMiddleware(container, under: acme))
            .get("basket") { _, context -> String in
                let basket = try await context.resolve(Basket.self)
                return "basket \(basket.number) of cache \(basket.cache.number)"
            }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            for expected in ["basket 2 of cache 1", "basket 3 of cache 1"] {
                try await client.execute(uri: "/acme/basket", method: .get) { response in
                    #expect(String(buffer: response.body) == expected)
                }
            }
        }
        try await acme.close()
        try await container.shutdown()
    }
}
