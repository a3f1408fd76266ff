import Graft
import Testing

private protocol Command: Sendable {
    var title: String { get }
}

private struct Deploy: Command {
    let title = "deploy"
}

private struct Rollback: Command {
    let title = "rollback"
}

private struct Migrate: Command {
    let title = "migrate"
    init(database: CommandStore) {}
}

private final class CommandStore: Sendable {}

private struct CommandLine: Sendable {
    let commands: ByName<any Command>
}

@Suite struct NamedCollectionTests {
    private func commandBuilder() -> ContainerBuilder {
        var builder = ContainerBuilder()
        builder.register((any Command).self) { _ in Deploy() }
        builder.register((any Command).self, name: "deploy") { _ in Deploy() }
        builder.register((any Command).self, name: "rollback") { _ in Rollback() }
        builder.register(CommandLine.self, using: CommandLine.init(commands:))
        return builder
    }

    @Test func holderReceivesTheNamedRegistrationsByName() throws {
        var builder = commandBuilder()
        // The last registration of a name is the one `resolve(_:name:)` gives, and so the one held.
        builder.register((any Command).self, name: "deploy") { _ in Rollback() }

        let commands = try builder.build().resolve(CommandLine.self).commands

        #expect(commands.names == ["deploy", "rollback"])
        #expect(commands["deploy"]?.title == "rollback")
        #expect(commands["rollback"]?.title == "rollback")
        #expect(commands["missing"] == nil)
    }

    @Test func noNamedRegistrationGivesAnEmptyDictionary() throws {
        var builder = ContainerBuilder()
        builder.register((any Command).self) { _ in Deploy() }
        builder.register(CommandLine.self, using: CommandLine.init(commands:))

        #expect(try builder.build().resolve(CommandLine.self).commands.isEmpty)
    }

    @Test func worksWhenAnItemNeedsAwait() async throws {
        var builder = commandBuilder()
        builder.register((any Command).self, name: "migrate") { _ async in Migrate(database: CommandStore()) }

        let commands = try await builder.build().resolve(CommandLine.self).commands

        #expect(commands.count == 3)
        #expect(commands["migrate"]?.title == "migrate")
    }

    @Test func missingDependencyOfANamedItemIsReportedFromTheHolder() {
        var builder = commandBuilder()
        builder.register((any Command).self, name: "migrate", using: Migrate.init(database:))

        let problems = builder.validate()

        #expect(problems.map(\.code) == [.missingDependency])
        #expect(problems.first?.path == ["CommandLine", "ByName<Command>", "Command[\"migrate\"]", "CommandStore"])
    }

    @Test func graphExportShowsTheCollection() throws {
        let mermaid = try commandBuilder().build().exportGraph(as: .mermaid)

        #expect(mermaid.contains("ByName<Command><br/>.transient, collection by name"))
    }
}
