import AsyncHTTPClient
import Graft
import GraftVapor
import Testing
import Vapor

private struct OrderID: Sendable {
    let value: Int
}

private struct Receipt: Sendable {
    let order: OrderID
    let requestID: RequestID
}

/// A helper that only knows it has a `Resolver`.
private func receipt(for order: OrderID, from resolver: any Resolver) async throws -> Receipt {
    try await resolver.resolve(Receipt.self, arguments: order)
}

/// Runtime arguments work through every resolver GraftVapor hands out: the request's scope is a
/// Graft `Scope`, also when a helper sees it only as `any Resolver`.
@Suite(.timeLimit(.minutes(1))) struct RuntimeArgumentsTests {
    @Test func aServiceTakingRuntimeArgumentsResolvesThroughTheRequestsScope() async throws {
        var builder = ContainerBuilder()
        builder.registerRequestValues()
        builder.register(Receipt.self, arguments: OrderID.self, using: Receipt.init(order:requestID:))
        let app = try await Application.make(.testing)
        app.graft.install(try await builder.build())
        app.get("receipt") { req async throws -> String in
            let direct = try await req.resolve(Receipt.self, arguments: OrderID(value: 7))
            let helped = try await receipt(for: OrderID(value: 8), from: req.graftScope)
            let same = direct.requestID.value == req.id && helped.requestID.value == req.id
            return "\(direct.order.value) \(helped.order.value) \(same)"
        }
        let response = try await LiveServer.run(app) { try await $0.get("receipt") }
        #expect(response.status == .ok)
        #expect(response.body == "7 8 true")
    }
}
