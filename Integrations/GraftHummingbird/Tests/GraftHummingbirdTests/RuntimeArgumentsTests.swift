import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

private struct OrderID: Sendable {
    let value: Int
}

private struct Receipt: Sendable {
    let order: OrderID
    let requestID: HummingbirdRequestID
}

/// A helper that only knows it has a `Resolver`.
private func receipt(for order: OrderID, from resolver: any Resolver) async throws -> Receipt {
    try await resolver.resolve(Receipt.self, arguments: order)
}

/// Runtime arguments work through every resolver GraftHummingbird hands out: the request's scope
/// is a Graft `Scope`, also when a helper sees it only as `any Resolver`.
@Suite(.timeLimit(.minutes(1))) struct RuntimeArgumentsTests {
    @Test func aServiceTakingRuntimeArgumentsResolvesThroughTheRequestsScope() async throws {
        var builder = ContainerBuilder()
        builder.registerRequestValues()
        builder.register(Receipt.self, arguments: OrderID.self, using: Receipt.init(order:requestID:))
        let router = Router(context: BasicGraftRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(try await builder.build()))
        router.get("receipt") { _, context -> String in
            let direct = try await context.resolve(Receipt.self, arguments: OrderID(value: 7))
            let helped = try await receipt(for: OrderID(value: 8), from: try #require(context.scope))
            let same = direct.requestID.value == context.id && helped.requestID.value == context.id
            return "\(direct.order.value) \(helped.order.value) \(same)"
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await client.execute(uri: "/receipt", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "7 8 true")
            }
        }
    }
}
