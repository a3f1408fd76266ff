import Graft
import Testing

@Suite struct LifecycleHookBuildProblemTests {
    @Test func aHookOnAServiceThatIsNotASingletonIsReportedWithTheOtherBuildProblems() throws {
        var builder = ContainerBuilder()
        builder.register(Catalog.self, using: Catalog.init(warehouse:))  // Warehouse is missing
        builder.register(Shelf.self, lifetime: .scoped, using: Shelf.init(catalog:))
        builder.onStart(Catalog.self) { _ in }
        builder.runs(Shelf.self) { _ in }

        let error = #expect(throws: GraftError.withCode(.invalidGraph)) { try builder.build() }
        let problems = error?.problems ?? []
        #expect(problems.map(\.code) == [.missingDependency, .invalidLifecycleHook, .invalidLifecycleHook])
        let hooks = problems.filter { $0.code == .invalidLifecycleHook }
        #expect(hooks.map(\.service) == ["Catalog", "Shelf"])
        #expect(hooks[0].summary.hasPrefix("start hook for Catalog (GraftTests/LifecycleHookBuildProblemTests.swift:"))
        #expect(hooks[0].summary.hasSuffix("), which is .transient, not a singleton"))
        #expect(hooks[1].summary.hasSuffix("), which is .scoped, not a singleton"))
        #expect(hooks[1].summary.hasPrefix("run() for Shelf"))
        #expect(
            hooks[1].hints.first?.hasPrefix(
                "a container starts and stops each service once, so only a .singleton or .eagerSingleton can have a run(); register Shelf (GraftTests/"
            ) == true
        )
        #expect(hooks[1].hints.first?.hasSuffix(") with lifetime: .singleton") == true)
    }

    @Test func aHookOnAServiceNobodyRegistersIsABuildProblem() {
        var builder = ContainerBuilder()
        builder.onStop(Warehouse.self, name: "primary") { _ in }
        let problems = builder.validate()
        #expect(problems.map(\.code) == [.invalidLifecycleHook])
        #expect(problems.first?.summary.hasPrefix("stop hook for Warehouse[\"primary\"] (GraftTests/") == true)
        #expect(problems.first?.summary.hasSuffix("), which is not registered") == true)
        #expect(
            problems.first?.hints == [
                "register Warehouse[\"primary\"] with lifetime: .singleton, or remove the stop hook"
            ]
        )
    }
}
