import Graft
import Testing

private protocol Plugin: Sendable {
    var label: String { get }
}

/// A plugin that says which one it is; a class, so tests can tell shared instances apart.
private final class Labelled: Plugin {
    let label: String
    init(_ label: String) { self.label = label }
}

private final class Tracing: Plugin {
    let label = "tracing"
    init(log: AuditLog) {}
}

private final class AuditLog: Sendable {}

private final class PluginHost: Sendable {
    let plugins: All<any Plugin>
    init(plugins: All<any Plugin>) { self.plugins = plugins }
}

private final class Session: Sendable {}

private final class Settings: Sendable {}

@Suite struct CollectionInjectionTests {
    private func pluginBuilder(hostLifetime: Lifetime = .transient) -> ContainerBuilder {
        var builder = ContainerBuilder()
        builder.register((any Plugin).self, lifetime: .singleton) { _ in Labelled("audit") }
        builder.register((any Plugin).self, name: "metrics") { _ in Labelled("metrics") }
        builder.register(PluginHost.self, lifetime: hostLifetime, using: PluginHost.init(plugins:))
        return builder
    }

    @Test func holderReceivesEveryRegistrationInOrderEachByItsLifetime() throws {
        var builder = pluginBuilder()
        // A later unnamed registration wins `resolve`, but the collection holds the shadowed one too.
        builder.register((any Plugin).self) { _ in Labelled("metrics") }
        let container = try builder.build()

        let first = try container.resolve(PluginHost.self)
        let second = try container.resolve(PluginHost.self)

        #expect(first.plugins.map(\.label) == ["audit", "metrics", "metrics"])
        #expect(first.plugins.map(\.label) == (try container.resolveAll((any Plugin).self)).map(\.label))
        // The singleton is shared; the transients are made anew for each holder.
        #expect(first.plugins[0] as AnyObject === second.plugins[0] as AnyObject)
        #expect(first.plugins[1] as AnyObject !== second.plugins[1] as AnyObject)
    }

    @Test func graphLifetimeItemIsTheOneTheRestOfTheResolveShares() throws {
        var builder = ContainerBuilder()
        builder.register((any Plugin).self, lifetime: .graph) { _ in Labelled("per resolve") }
        builder.register(Dashboard.self, using: Dashboard.init(plugins:main:))
        let container = try builder.build()

        let first = try container.resolve(Dashboard.self)
        let second = try container.resolve(Dashboard.self)

        #expect(first.plugins[0] as AnyObject === first.main as AnyObject)
        #expect(first.main as AnyObject !== second.main as AnyObject)
    }

    @Test func noRegistrationGivesAnEmptyCollection() throws {
        var builder = ContainerBuilder()
        builder.register(PluginHost.self, using: PluginHost.init(plugins:))

        #expect(builder.validate().isEmpty)
        #expect(try builder.build().resolve(PluginHost.self).plugins.isEmpty)
    }

    /// The plugins alone: no registration depends on a collection of them.
    private func pluginsOnly() -> ContainerBuilder {
        var builder = ContainerBuilder()
        builder.register((any Plugin).self, lifetime: .singleton) { _ in Labelled("audit") }
        builder.register((any Plugin).self, name: "metrics") { _ in Labelled("metrics") }
        return builder
    }

    @Test func aCollectionNothingDependsOnResolvesAtTheTopLevel() throws {
        let container = try pluginsOnly().build()

        #expect(try container.resolve(All<any Plugin>.self).map(\.label) == ["audit", "metrics"])
        let byName = try container.resolve(ByName<any Plugin>.self)
        #expect(byName.names == ["metrics"])
        #expect(byName["metrics"]?.label == "metrics")
        #expect(try container.resolve(All<Settings>.self).isEmpty)
    }

    @Test func aCollectionNothingDependsOnResolvesAtTheTopLevelWithAwait() async throws {
        let container = try await pluginsOnly().build()

        #expect(try await container.resolve(All<any Plugin>.self).map(\.label) == ["audit", "metrics"])
        #expect(try await container.resolve(ByName<any Plugin>.self).names == ["metrics"])
    }

    @Test func aChildGathersItsParentsItemsThenItsOwn() throws {
        let parent = try pluginsOnly().build()
        let child = try parent.makeChild { builder in
            builder.register((any Plugin).self, name: "billing") { _ in Labelled("billing") }
        }

        #expect(try child.resolve(All<any Plugin>.self).map(\.label) == ["audit", "metrics", "billing"])
        #expect(try child.resolve(ByName<any Plugin>.self).names == ["metrics", "billing"])
        #expect(try parent.resolve(All<any Plugin>.self).count == 2)
    }

    @Test func aRegisteredArrayKeepsItsMeaning() throws {
        var builder = pluginBuilder()
        builder.register([String].self, instance: ["configured"])
        builder.register(String.self, instance: "one")
        builder.register(Catalogue.self, using: Catalogue.init(list:strings:))
        let catalogue = try builder.build().resolve(Catalogue.self)

        #expect(catalogue.list == ["configured"])
        #expect(Array(catalogue.strings) == ["one"])
    }

    @Test func closureFactoryDeclaresAndResolvesACollection() throws {
        var builder = pluginBuilder()
        builder.register(Report.self, dependencies: [Requirement(All<any Plugin>.self)]) { r in
            Report(count: try r.resolve(All<any Plugin>.self).count)
        }

        #expect(try builder.build().resolve(Report.self).count == 2)
    }

    @Test func itemsNeedingAwaitAreAwaitedBeforeASynchronousInitializer() async throws {
        var builder = pluginBuilder()
        builder.register((any Plugin).self, name: "slow") { _ async in Labelled("metrics") }
        let container = try await builder.build()

        let host = try await container.resolve(PluginHost.self)

        #expect(host.plugins.map(\.label) == ["audit", "metrics", "metrics"])
        #expect(throws: GraftError.withCode(.needsAwait)) { try syncResolve(PluginHost.self, from: container) }
    }

    @Test func lazyCollectionIsMadeOnFirstAccess() throws {
        var builder = pluginBuilder()
        builder.register(LazyHost.self, using: LazyHost.init(plugins:))

        let container = try builder.build()
        let host = try container.resolve(LazyHost.self)

        #expect(try host.plugins.get().count == 2)
    }

    @Test func missingDependencyOfAnItemIsReportedFromTheHolder() {
        var builder = pluginBuilder()
        builder.register((any Plugin).self, name: "tracing", using: Tracing.init(log:))

        let problems = builder.validate()

        #expect(problems.map(\.code) == [.missingDependency])
        #expect(problems.first?.summary == "no registration for AuditLog, which Plugin[\"tracing\"] needs")
        #expect(problems.first?.path == ["PluginHost", "All<Plugin>", "Plugin[\"tracing\"]", "AuditLog"])
        #expect(
            problems.first?.description.contains("resolving: PluginHost → All<Plugin> → Plugin[\"tracing\"] → AuditLog")
                == true
        )
        #expect(
            problems.first?.hints.contains("Plugin[\"tracing\"] is in the All<Plugin> that PluginHost receives") == true
        )
    }

    @Test func aNamedCollectionIsNoCollection() {
        var builder = pluginBuilder()
        builder.register(Report.self, dependencies: [Requirement(All<any Plugin>.self, name: "x")]) { _ in
            Report(count: 0)
        }

        let problems = builder.validate()

        #expect(problems.map(\.summary) == ["no registration for All<Plugin> (name: \"x\"), which Report needs"])
    }

    /// The hint names the named item where the Lazy goes, and where it was registered.
    @Test func cycleThroughACollectionsNamedItemNamesItAndItsRegistration() {
        var builder = ContainerBuilder()
        let line = #line + 1
        builder.register(Node.self, name: "leaf", using: { (_: Tree) in Node() })
        builder.register(Tree.self, using: Tree.init(nodes:))

        let problems = builder.validate()

        #expect(problems.map(\.code) == [.cycle])
        #expect(
            problems.first?.description == """
                Graft: dependency cycle: Tree → All<Node> → Node["leaf"] → Tree
                  break it with Lazy<Tree> or Provider<Tree> in Node["leaf"]
                  Node["leaf"] was registered at GraftTests/CollectionInjectionTests.swift:\(line)
                """
        )
    }

    @Test func singletonHoldingACollectionWithAScopedItemIsCaptive() {
        var builder = pluginBuilder(hostLifetime: .singleton)
        builder.register((any Plugin).self, name: "session", lifetime: .scoped) { _ in Labelled("audit") }

        let problems = builder.validate()

        #expect(problems.map(\.code) == [.captiveDependency])
        #expect(
            problems.first?.summary
                == "captive dependency: PluginHost (.singleton) depends on Plugin[\"session\"] (.scoped)"
        )
        #expect(problems.first?.path == ["PluginHost", "All<Plugin>", "Plugin[\"session\"]"])
        #expect(
            problems.first?.description.contains("resolving: PluginHost → All<Plugin> → Plugin[\"session\"]") == true
        )
        #expect(problems.first?.hints.first?.contains("make PluginHost .scoped or shorter-lived") == true)
    }

    @Test func scopedHolderGetsTheScopesItems() throws {
        var builder = pluginBuilder(hostLifetime: .scoped)
        builder.register((any Plugin).self, name: "session", lifetime: .scoped) { _ in Labelled("audit") }
        let container = try builder.build()

        let (host, direct) = try container.withScope { scope in
            (try scope.resolve(PluginHost.self), try scope.resolve((any Plugin).self, name: "session"))
        }

        #expect(host.plugins[2] as AnyObject === direct as AnyObject)
    }

    @Test func graphExportShowsTheCollectionAndItsItems() throws {
        let dot = try pluginBuilder().build().exportGraph(as: .dot)

        #expect(dot.contains("All<Plugin>\\n.transient, collection"))
        #expect(dot.contains("n2 -> n3"))
        #expect(dot.contains("n3 -> n0"))
        #expect(dot.contains("n3 -> n1"))
    }

    @Test func overridingRebuildsTheCollectionFromTheNewRegistrations() throws {
        let container = try pluginBuilder().build()

        let overridden = try container.overriding { builder in
            builder.register((any Plugin).self, name: "extra") { _ in Labelled("metrics") }
        }

        #expect(try overridden.resolve(PluginHost.self).plugins.count == 3)
        #expect(try container.resolve(PluginHost.self).plugins.count == 2)
    }
}

private struct Catalogue: Sendable {
    let list: [String]
    let strings: All<String>
}

private struct Dashboard: Sendable {
    let plugins: All<any Plugin>
    let main: any Plugin
}

private struct Report: Sendable {
    let count: Int
}

private final class LazyHost: Sendable {
    let plugins: Lazy<All<any Plugin>>
    init(plugins: Lazy<All<any Plugin>>) { self.plugins = plugins }
}

private final class Node: Sendable {}

private final class Tree: Sendable {
    init(nodes: All<Node>) {}
}
