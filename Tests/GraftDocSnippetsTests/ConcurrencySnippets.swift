import Graft
import Testing

// The code of the article "Concurrency" (Concurrency.md), compiled and run, and its sample
// message checked against the one Graft prints.

enum ConcurrencyArticle {
    struct DatabaseSettings: Sendable {
        let path: String
    }

    final class Database: Sendable {
        let path: String

        private init(path: String) { self.path = path }

        static func connect(_ settings: DatabaseSettings) async throws -> Database {
            await Task.yield()  // stands in for opening a connection
            return Database(path: settings.path)
        }
    }

    final class LapTimer: Sendable {}

    @MainActor final class LapViewModel {
        let timer: LapTimer
        init(timer: LapTimer) { self.timer = timer }
    }

    final class Pool: Sendable {
        static func open() async -> Pool {
            await Task.yield()
            return Pool()
        }
    }
}

extension ConcurrencyArticle {
    @Suite struct Snippets {
        @Test func anAsyncFactoryIsAwaitedAndMadeOnce() async throws {
            var builder = ContainerBuilder()
            builder.register(DatabaseSettings.self, instance: DatabaseSettings(path: "laps.sqlite"))
            builder.register(
                Database.self,
                lifetime: .singleton,
                dependencies: [Requirement(DatabaseSettings.self)]
            ) { r async throws in
                try await Database.connect(r.resolve(DatabaseSettings.self))
            }
            let container = try await builder.build()
            let db = try await container.resolve(Database.self)
            #expect(db.path == "laps.sqlite")
            #expect(try await container.resolve(Database.self) === db)
        }

        @Test func aMainActorServiceIsResolvedWithAwait() async throws {
            var builder = ContainerBuilder()
            builder.register(LapTimer.self, lifetime: .singleton, using: LapTimer.init)
            builder.register(LapViewModel.self, usingMainActor: LapViewModel.init(timer:))
            let container = try await builder.build()
            let model = try await container.resolve(LapViewModel.self)
            let timer = try await container.resolve(LapTimer.self)
            #expect(await MainActor.run { model.timer } === timer)
        }

        /// The article quotes the message a synchronous `build()` gives inside a task when an
        /// eager singleton needs `await`; this is that message, word for word.
        @Test func theQuotedNeedsAwaitMessageIsTheOneGraftPrints() async throws {
            let markdown = try DocumentedCodeTests.document(DocumentedCodeTests.articles + "Concurrency.md")
            let quoted = try #require(DocumentedCodeTests.plainBlocks(of: markdown).first)
            var builder = ContainerBuilder()
            builder.register(Pool.self, lifetime: .eagerSingleton) { _ async in await Pool.open() }
            let error = #expect(throws: GraftError.self) { try Self.buildSynchronously(builder) }
            #expect(error.map { "\($0)" } == quoted)
        }

        /// A synchronous function, so Swift calls the synchronous `build()` although a task runs it.
        static func buildSynchronously(_ builder: ContainerBuilder) throws {
            _ = try builder.build()
        }
    }
}
