import Graft
import Testing

private protocol Clock: Sendable {}
private struct Audit: Sendable {}

/// A closure factory that resolves what it did not declare fails at run time, not in `build()`:
/// the message says so, and what to declare so that `build()` checks it next time.
@Suite struct UndeclaredDependencyMessageTests {
    @Test(arguments: [
        (
            nil as String?,
            "add dependencies: [Requirement(Clock.self)] to Audit's registration so build() checks it next time"
        ),
        (
            "utc",
            "add dependencies: [Requirement(Clock.self, name: \"utc\")] to Audit's registration so build() "
                + "checks it next time"
        ),
    ])
    func aDependencyResolvedWithoutBeingDeclaredSaysHowToDeclareIt(name: String?, declaration: String) async throws {
        var builder = ContainerBuilder()
        builder.register(Audit.self, lifetime: .scoped) { r in
            _ = try r.resolve((any Clock).self, name: name)
            return Audit()
        }
        let scope = try await builder.build().makeScope()
        let error = await #expect(throws: GraftError.self) { try await scope.resolve(Audit.self) }
        let clock = name.map { "Clock[\"\($0)\"]" } ?? "Clock"
        #expect(error?.code == .notRegistered)
        #expect(
            error?.description.split(separator: "\n").last
                == "  build() could not see this: Audit resolves \(clock) without declaring it; \(declaration)"
        )
    }

    @Test func aServiceResolvedDirectlyIsNotSaidToBeAnUndeclaredDependency() async throws {
        let container = try await ContainerBuilder().build()
        let error = await #expect(throws: GraftError.self) { try await container.resolve(Audit.self) }
        #expect(error?.description.contains("build() could not see this") == false)
    }
}
