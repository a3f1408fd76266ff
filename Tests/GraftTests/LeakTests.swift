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

/// A service with injected properties: main-actor isolation is what lets a class with
/// `@Injected` (stored `var`) properties be `Sendable`, and so be a registered service.
@MainActor private final class Cockpit {
    @Injected var dial: Dial

    nonisolated init() {}
}

/// One of six scoped services: a scope holds its first four instances inline and any more
/// apart, and releases both kinds alike.
private final class Instrument<Position>: Sendable {}
private enum First {}
private enum Second {}
private enum Third {}
private enum Fourth {}
private enum Fifth {}
private enum Sixth {}

/// The six instruments' instances one scope made, each seen twice, held weakly.
private struct InstrumentsSeen {
    private final class Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    private var seen: [Weak] = []

    /// A container with the six instruments, each `.scoped`.
    static func makeContainer() throws -> Container {
        var builder = ContainerBuilder()
        register(in: &builder)
        return try builder.build()
    }

    private static func register(in builder: inout ContainerBuilder) {
        builder.register(Instrument<First>.self, lifetime: .scoped) { _ in Instrument<First>() }
        builder.register(Instrument<Second>.self, lifetime: .scoped) { _ in Instrument<Second>() }
        builder.register(Instrument<Third>.self, lifetime: .scoped) { _ in Instrument<Third>() }
        builder.register(Instrument<Fourth>.self, lifetime: .scoped) { _ in Instrument<Fourth>() }
        builder.register(Instrument<Fifth>.self, lifetime: .scoped) { _ in Instrument<Fifth>() }
        builder.register(Instrument<Sixth>.self, lifetime: .scoped) { _ in Instrument<Sixth>() }
    }

    /// Resolves each instrument twice from `scope`, expecting the same instance both times.
    mutating func resolveAll(from scope: Scope) throws {
        try see(Instrument<First>.self, from: scope)
        try see(Instrument<Second>.self, from: scope)
        try see(Instrument<Third>.self, from: scope)
        try see(Instrument<Fourth>.self, from: scope)
        try see(Instrument<Fifth>.self, from: scope)
        try see(Instrument<Sixth>.self, from: scope)
    }

    private mutating func see<Service: AnyObject & Sendable>(_ type: Service.Type, from scope: Scope) throws {
        let instance = try scope.resolve(type)
        #expect(try scope.resolve(type) === instance)
        seen.append(Weak(instance))
    }

    var aliveCount: Int { seen.filter { $0.object != nil }.count }
}

/// Who binds the singleton's `@Injected` properties.
enum InjectedBinder: String, CaseIterable, Sendable {
    case activationHookResolver, container, scope
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

    @Test func aScopeReleasesEveryScopedInstanceWhenItCloses() throws {
        let container = try InstrumentsSeen.makeContainer()
        var seen = InstrumentsSeen()
        let scope = container.makeScope()
        try seen.resolveAll(from: scope)
        #expect(seen.aliveCount == 6)
        try scope.close()
        #expect(seen.aliveCount == 0)
    }

    @Test func aScopeLetGoWithoutClosingReleasesEveryScopedInstance() throws {
        let container = try InstrumentsSeen.makeContainer()
        var seen = InstrumentsSeen()
        do {
            let scope = container.makeScope()
            try withExtendedLifetime(scope) {
                try seen.resolveAll(from: scope)
                #expect(seen.aliveCount == 6)
            }
        }
        #expect(seen.aliveCount == 0)
    }

    @Test func closingAScopeReleasesItsOpenChildrensScopedInstances() throws {
        let container = try InstrumentsSeen.makeContainer()
        var seen = InstrumentsSeen()
        let parent = container.makeScope()
        let child = parent.makeScope()
        try seen.resolveAll(from: child)
        try parent.close()
        #expect(child.isClosed)
        #expect(seen.aliveCount == 0)
    }

    @Test func aScopeLetGoWithoutClosingDoesNotKeepItsContainerAlive() throws {
        weak var container: Container?
        weak var gauge: Gauge?
        do {
            var builder = ContainerBuilder()
            builder.register(Gauge.self, lifetime: .scoped, using: Gauge.init)
            let strong = try builder.build()
            container = strong
            gauge = try strong.makeScope().resolve(Gauge.self)
        }
        #expect(container == nil)
        #expect(gauge == nil)
    }

    @Test func aScopeKeepsItsContainerAliveWhileItIsHeld() throws {
        weak var container: Container?
        let scope: Scope
        do {
            var builder = ContainerBuilder()
            builder.register(Gauge.self, lifetime: .singleton, using: Gauge.init)
            let strong = try builder.build()
            container = strong
            scope = strong.makeScope()
        }
        #expect(container == nil)
        let first = try scope.resolve(Gauge.self)
        #expect(try scope.resolve(Gauge.self) === first)
        try scope.close()
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

    @Test(arguments: InjectedBinder.allCases)
    func singletonWithInjectedPropertiesBoundToItsContainerDoesNotKeepItAlive(_ binder: InjectedBinder) async throws {
        weak var container: Container?
        weak var cockpit: Cockpit?
        do {
            var builder = ContainerBuilder()
            builder.register(Gauge.self, using: Gauge.init)
            builder.register(Dial.self, lifetime: .singleton, using: Dial.init(gauge:gauges:))
            builder.register(Cockpit.self, lifetime: .singleton) { _ in Cockpit() }
            if binder == .activationHookResolver {
                builder.onActivation(Cockpit.self) { cockpit, resolver in resolver.injectProperties(into: cockpit) }
            }
            let strong = try await builder.build()
            let scope = strong.makeScope()
            let resolved = try await strong.resolve(Cockpit.self)
            switch binder {
            case .activationHookResolver: break
            case .container: strong.injectProperties(into: resolved)
            case .scope: scope.injectProperties(into: resolved)
            }
            let dial = try await MainActor.run { try resolved.$dial.value }
            #expect(try await strong.resolve(Dial.self) === dial)
            container = strong
            cockpit = resolved
        }
        #expect(container == nil)
        #expect(cockpit == nil)
    }

    @Test func injectedPropertyReadAfterItsContainerIsGoneThrowsClosed() throws {
        let panel = Panel()
        do {
            var builder = ContainerBuilder()
            builder.register(Gauge.self, using: Gauge.init)
            builder.register(Dial.self, using: Dial.init(gauge:gauges:))
            try builder.build().injectProperties(into: panel)
        }

        let error = #expect(throws: GraftError.self) { try panel.$dial.value }

        #expect(error?.code == .closed)
        #expect(
            error?.description == """
                Graft: cannot resolve Dial: the container it came from no longer exists
                  keep the Container alive while Lazy, Provider or @Injected values from it are in use
                """
        )
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
