import Graft
import Testing

/// Problems a package built on Graft adds while the graph is described
/// (``ContainerBuilder/addBuildProblem(_:)``): `build()` throws them with the graph's own.
@Suite struct BuildProblemTests {
    private func settingsProblem() -> GraftError {
        GraftError(
            .missingKey,
            "ServerSettings needs a port",
            service: "ServerSettings",
            hints: ["set APP_PORT, or give the settings a default port"]
        )
    }

    @Test func addedProblemsComeFirstInTheOrderTheyWereAddedThenTheGraphsOwn() {
        var builder = ContainerBuilder()
        let wheelLine = #line + 1
        builder.register(Wheel.self, using: { (_: Transmission) in Wheel() })
        builder.addBuildProblem(settingsProblem())
        builder.addBuildProblem(GraftError(.typeMismatch, "ServerSettings.host expects String, got Int"))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.code == .invalidGraph)
        #expect(error?.problems.map(\.code) == [.missingKey, .typeMismatch, .missingDependency])
        #expect(
            error?.description == """
                Graft: build() found 3 problems
                  1. ServerSettings needs a port
                     set APP_PORT, or give the settings a default port
                  2. ServerSettings.host expects String, got Int
                  3. no registration for Transmission, which Wheel needs
                     resolving: Wheel → Transmission
                     register it, autowiring its initializer: builder.register(Transmission.self, using: Transmission.init), or as a value: builder.register(Transmission.self, instance: Transmission(...))
                     Wheel was registered at GraftTests/BuildProblemTests.swift:\(wheelLine)
                """
        )
        #expect(builder.validate().map(\.description) == error?.problems.map(\.description))
    }

    @Test func anAddedProblemFailsAnOtherwiseValidGraphBeforeAnythingIsCreated() async {
        let made = Counter()
        var builder = ContainerBuilder()
        builder.register(Wheel.self, lifetime: .eagerSingleton) { _ in
            made.increment()
            return Wheel()
        }
        builder.addBuildProblem(settingsProblem())

        let error = #expect(throws: GraftError.self) { try builder.build() }
        let awaited = await #expect(throws: GraftError.self) { try await builder.build() }

        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. ServerSettings needs a port
                     set APP_PORT, or give the settings a default port
                """
        )
        #expect(awaited?.description == error?.description)
        #expect(made.value == 0)
    }
}
