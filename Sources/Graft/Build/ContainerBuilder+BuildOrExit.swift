#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Building in a program's `main`, where a graph that cannot be built ends the program.
extension ContainerBuilder {
    /// Builds the container, or writes why it cannot to standard error and exits with status 1.
    ///
    /// A `main` that lets `build()`'s error escape ends in Swift's "Fatal error: Error raised at
    /// top level", with a backtrace and a crash's exit status. A server's `main` wants the
    /// message alone, and a status that says "failed to start":
    ///
    /// ```swift
    /// let container = builder.buildOrExit()
    /// ```
    ///
    /// In `async` code Swift picks the `async` overload, as it does for ``build()-4ammy``.
    ///
    /// - Returns: The container; when ``build()-4ammy`` throws, this does not return.
    public func buildOrExit() -> Container {
        do {
            return try build()
        } catch {
            exitReporting(error)
        }
    }

    /// Builds the container, awaiting eager singletons that need `await`, or writes why it cannot
    /// to standard error and exits with status 1.
    ///
    /// ```swift
    /// let container = await builder.buildOrExit()
    /// ```
    ///
    /// - Returns: The container; when ``build()-518pb`` throws, this does not return.
    public func buildOrExit() async -> Container {
        do {
            return try await build()
        } catch {
            exitReporting(error)
        }
    }
}

/// Writes `error`'s description and a newline to standard error, then exits with status 1.
private func exitReporting(_ error: GraftError) -> Never {
    var message = "\(error)\n"
    message.withUTF8 { bytes in
        var written = 0
        while written < bytes.count {
            let result = write(2, bytes.baseAddress! + written, bytes.count - written)
            guard result > 0 else { break }  // standard error is closed: nothing more to say
            written += result
        }
    }
    exit(1)
}
