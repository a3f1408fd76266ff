// A `main` whose graph cannot be built, for `BuildOrExitTests` to run: `buildOrExit()` must write
// the error to standard error and exit with status 1. Its arguments choose the overload (`sync`
// or `async`) and, with `valid`, a graph that builds, whose resolve it prints. Not a product; the
// test target depends on it so it is built.
import Graft

struct Database: Sendable {}

struct Repository: Sendable {
    let database: Database
}

var builder = ContainerBuilder()
builder.register(Repository.self, fileID: "Server/main.swift", line: 7, using: Repository.init(database:))
if CommandLine.arguments.contains("valid") {
    builder.register(Database.self) { _ in Database() }
}

/// In an `async` function Swift picks the `async` overload.
func buildAsynchronously(_ builder: ContainerBuilder) async -> Container {
    await builder.buildOrExit()
}

let container =
    CommandLine.arguments.contains("async") ? await buildAsynchronously(builder) : builder.buildOrExit()
print("resolved \(try container.resolve(Repository.self))")
