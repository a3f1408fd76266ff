import Foundation
import Graft
import Testing

/// `buildOrExit()` in a real process: the `BuildOrExit` executable, built next to the test bundle.
@Suite struct BuildOrExitTests {
    /// What `build()` says about the executable's graph, which lacks `Database`.
    static let message = """
        Graft: build() found 1 problem
          1. no registration for Database, which Repository needs
             resolving: Repository → Database
             register it, autowiring its initializer: builder.register(Database.self, using: Database.init), or as a value: builder.register(Database.self, instance: Database(...))
             Repository was registered at Server/main.swift:7

        """

    @Test(arguments: ["sync", "async"])
    func aGraphThatCannotBeBuiltEndsTheProcessWithItsMessageAndStatus1(overload: String) throws {
        let run = try Self.run(overload)
        #expect(run.status == 1)
        #expect(run.reason == .exit)  // exited, not trapped: no "Fatal error", no backtrace
        #expect(run.standardError == Self.message)
        #expect(run.standardOutput.isEmpty)
    }

    @Test(arguments: ["sync", "async"])
    func aGraphThatBuildsIsReturned(overload: String) throws {
        let run = try Self.run(overload, "valid")
        #expect(run.status == 0)
        #expect(run.standardError.isEmpty)
        #expect(run.standardOutput.hasPrefix("resolved Repository("))
    }

    static func run(
        _ arguments: String...
    ) throws -> (
        status: Int32, reason: Process.TerminationReason, standardOutput: String, standardError: String
    ) {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Apple platforms the test binary sits inside `GraftPackageTests.xctest/Contents/MacOS`.
        while directory.path.contains(".xctest") {
            directory.deleteLastPathComponent()
        }
        let process = Process()
        process.executableURL = directory.appendingPathComponent("BuildOrExit")
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Small outputs: each fits in its pipe's buffer, so reading one after the other is safe.
        let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
        let standardError = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, process.terminationReason,
            String(decoding: standardOutput, as: UTF8.self), String(decoding: standardError, as: UTF8.self)
        )
    }
}
