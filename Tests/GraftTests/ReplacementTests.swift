import Graft
import Testing

private final class Mailer: Sendable {}

/// Registering a (type, name) again: last wins, the builder lists the replacement, and an
/// option makes a lifetime-changing one a build problem.
@Suite struct ReplacementTests {
    @Test func replacementsListBothRegistrationsAndTheLaterOneWins() throws {
        var builder = ContainerBuilder()
        let first = #line + 1
        builder.register(Mailer.self, lifetime: .singleton) { _ in Mailer() }
        let second = #line + 1
        builder.register(Mailer.self) { _ in Mailer() }
        #expect(
            builder.replacements.map(\.description) == [
                "Mailer registered at GraftTests/ReplacementTests.swift:\(first) (.singleton) is replaced by the "
                    + "registration at GraftTests/ReplacementTests.swift:\(second) (.transient)"
            ]
        )
        #expect(builder.validate().isEmpty)
        let container = try builder.build()
        #expect(try container.resolve(Mailer.self) !== container.resolve(Mailer.self))
    }

    @Test func aReplacementNamesTheServiceWhereEachRegistrationWasMadeAndBothLifetimes() throws {
        var builder = ContainerBuilder()
        let first = #line + 1
        builder.register(Mailer.self, name: "night", lifetime: .singleton) { _ in Mailer() }
        builder.register(Mailer.self) { _ in Mailer() }
        let second = #line + 1
        builder.register(Mailer.self, name: "night", lifetime: .scoped) { _ in Mailer() }

        let replacement = try #require(builder.replacements.first)

        #expect(builder.replacements.count == 1, "the unnamed Mailer replaces nothing")
        #expect(replacement.service == #"Mailer["night"]"#)
        #expect(replacement.replacedAt == "GraftTests/ReplacementTests.swift:\(first)")
        #expect(replacement.replacementAt == "GraftTests/ReplacementTests.swift:\(second)")
        #expect(replacement.replacedLifetime == .singleton)
        #expect(replacement.replacementLifetime == .scoped)
        #expect(replacement.changesLifetime)
    }

    @Test func anAliasReplacedByARegistrationDoesNotChangeALifetime() throws {
        var builder = ContainerBuilder()
        builder.rejectsLifetimeChangingReplacements = true
        builder.register(RCEngine.self, lifetime: .singleton) { _ in RCEngine() }
        builder.alias((any Engine).self, to: RCEngine.self)
        builder.register((any Engine).self, lifetime: .scoped) { _ in V12Engine() }

        let replacement = try #require(builder.replacements.first)

        #expect(builder.replacements.count == 1)
        #expect(replacement.service == "Engine")
        #expect(replacement.replacementLifetime == .scoped)
        #expect(!replacement.changesLifetime, "an alias's lifetime is its target's, so the two are not compared")
        #expect(builder.validate().isEmpty)
    }

    @Test func optionMakesALifetimeChangingReplacementABuildProblem() {
        var builder = ContainerBuilder()
        builder.rejectsLifetimeChangingReplacements = true
        let first = #line + 1
        builder.register(Mailer.self, lifetime: .singleton) { _ in Mailer() }
        let second = #line + 1
        builder.register(Mailer.self) { _ in Mailer() }
        let error = #expect(throws: GraftError.self) { try builder.build() }
        let expected = """
            Graft: Mailer is registered again with another lifetime: .singleton at \
            GraftTests/ReplacementTests.swift:\(first), .transient at GraftTests/ReplacementTests.swift:\(second)
              the later registration wins; give both the same lifetime, remove one, or register one with a name (rejectsLifetimeChangingReplacements is set)
            """
        #expect(error?.problems.map(\.description) == [expected])
        #expect(error?.problems.map(\.code) == [.lifetimeReplaced])
        #expect(builder.validate().map(\.description) == [expected])
    }

    @Test func sameLifetimeReplacementPassesTheOptionAndOverridingWithAnotherLifetimeIsNoProblem() throws {
        var builder = ContainerBuilder()
        builder.rejectsLifetimeChangingReplacements = true
        builder.register(Mailer.self, lifetime: .singleton) { _ in Mailer() }
        builder.register(Mailer.self, lifetime: .singleton) { _ in Mailer() }
        #expect(builder.replacements.map(\.changesLifetime) == [false])
        let container = try builder.build()
        let overridden = try container.overriding { $0.register(Mailer.self) { _ in Mailer() } }
        #expect(try overridden.resolve(Mailer.self) !== overridden.resolve(Mailer.self))
    }
}
