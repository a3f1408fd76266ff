import Graft
import Testing

// The code of the article "Lifetimes" (Lifetimes.md), compiled and run: the table's three most
// used rows, checked by identity.

enum LifetimesArticle {
    final class LapTimer: Sendable {}
    final class Telemetry: Sendable {}

    final class PitStopOrder: Disposable {
        let confirmations = Counter()
        let disposals = Counter()

        func confirm() { confirmations.add() }
        func dispose() { disposals.add() }
    }
}

extension LifetimesArticle {
    @Suite struct Snippets {
        @Test func transientSingletonAndScoped() throws {
            var builder = ContainerBuilder()
            builder.register(LapTimer.self, using: LapTimer.init)  // a new one each time
            builder.register(Telemetry.self, lifetime: .singleton, using: Telemetry.init)  // one for the container
            builder.register(PitStopOrder.self, lifetime: .scoped, using: PitStopOrder.init)  // one per scope

            let container = try builder.build()
            let telemetry = try container.resolve(Telemetry.self)  // the same one for every caller and scope
            try container.withScope { scope in
                try scope.resolve(PitStopOrder.self).confirm()  // this scope's one order
            }  // closing the scope disposes the order

            #expect(try container.resolve(LapTimer.self) !== container.resolve(LapTimer.self))
            var ordersSeen: [PitStopOrder] = []
            try container.withScope { scope in
                #expect(try scope.resolve(Telemetry.self) === telemetry)
                let order = try scope.resolve(PitStopOrder.self)
                #expect(try scope.resolve(PitStopOrder.self) === order)
                ordersSeen.append(order)
            }
            let secondScopesOrder = try container.withScope { scope in try scope.resolve(PitStopOrder.self) }
            #expect(secondScopesOrder !== ordersSeen[0])
            #expect(ordersSeen[0].disposals.value == 1 && secondScopesOrder.disposals.value == 1)
        }

        @Test func aScopedServiceFromTheRootContainerIsAnError() throws {
            var builder = ContainerBuilder()
            builder.register(PitStopOrder.self, lifetime: .scoped, using: PitStopOrder.init)
            let container = try builder.build()
            let error = #expect(throws: GraftError.self) { try container.resolve(PitStopOrder.self) }
            #expect(error?.code == .scopedFromRoot)
        }
    }
}
