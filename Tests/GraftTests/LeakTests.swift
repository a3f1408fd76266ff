import Graft
import Testing

private final class Gauge: Sendable {}

private final class Dial: Sendable {
    let gauge: Lazy<Gauge>
    let gauges: Provider<Gauge>

    init(gauge: Lazy<Gauge>, gauges: Provider<Gauge>) {
        self.gauge = gauge
        self.gauges = gauges
    }
}

private final class Panel {
    @Injected var dial: Dial
}

/// Instances and containers go away when nothing needs them any more.
@Suite struct LeakTests {
    @Test func closedScopeReleasesItsScopedInstances() throws {
        var builder = ContainerBuilder()
        builder.register(Gauge.self, lifetime: .scoped, using: Gauge.init)
        let container = try builder.build()
        weak var gauge: Gauge?
        let scope = container.makeScope()
        gauge = try scope.resolve(Gauge.self)
        #expect(gauge != nil)
        try scope.close()
        #expect(gauge == nil)
    }

    @Test func droppedContainerReleasesItsSingletonsAndTransientsItOwns() throws {
        weak var singleton: Gauge?
        weak var container: Container?
        do {
            var builder = ContainerBuilder()
            builder.register(Gauge.self, lifetime: .singleton, using: Gauge.init)
            let strong = try builder.build()
            container = strong
            singleton = try strong.resolve(Gauge.self)
            try strong.shutdown()
        }
        #expect(container == nil)
        #expect(singleton == nil)
    }

    @Test func singletonHoldingLazyAndProviderDoesNotKeepItsContainerAlive() throws {
        weak var container: Container?
        weak var dial: Dial?
        do {
            var builder = ContainerBuilder()
            builder.register(Gauge.self, lifetime: .singleton, using: Gauge.init)
            builder.register(Dial.self, lifetime: .singleton, using: Dial.init(gauge:gauges:))
            let strong = try builder.build()
            container = strong
            let resolved = try strong.resolve(Dial.self)
            _ = try resolved.gauge.value
            dial = resolved
        }
        #expect(container == nil)
        #expect(dial == nil)
    }

    @Test func injectedPropertiesDoNotKeepTheContainerAlivePastTheirObject() throws {
        weak var container: Container?
        weak var panel: Panel?
        do {
            var builder = ContainerBuilder()
            builder.register(Gauge.self, using: Gauge.init)
            builder.register(Dial.self, using: Dial.init(gauge:gauges:))
            let strong = try builder.build()
            container = strong
            let object = Panel()
            strong.injectProperties(into: object)
            _ = object.dial
            panel = object
        }
        #expect(panel == nil)
        #expect(container == nil)
    }

    @Test func weakInstanceGoesWithItsLastHolder() throws {
        var builder = ContainerBuilder()
        builder.register(Gauge.self, lifetime: .weak, using: Gauge.init)
        let container = try builder.build()
        weak var released: Gauge?
        var held: Gauge? = try container.resolve(Gauge.self)
        released = held
        #expect(try container.resolve(Gauge.self) === held)
        held = nil
        #expect(released == nil)
        let fresh = try container.resolve(Gauge.self)
        #expect(try container.resolve(Gauge.self) === fresh)
    }
}
