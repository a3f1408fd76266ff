#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Continues a deep synchronous resolution on a thread with a fresh stack.
///
/// Resolving follows the graph recursively. A chain thousands of services deep would overflow a
/// thread's stack (512 KiB on Apple platforms' secondary threads), so every
/// so many levels (the resolve state's hop interval) the resolution moves to a new thread with a large
/// stack while the calling thread waits for it. Ordinary graphs, tens of levels deep, never hop.
@usableFromInline
enum StackExtension {
    /// The stack each continuation thread gets; the memory is reserved, and only touched as used.
    static let stackSize = 16 << 20

    private final class Work {
        let body: () -> Void

        init(_ body: @escaping () -> Void) {
            self.body = body
        }
    }

    /// Runs `body` on a new thread with a large stack and waits for it, with `carried` in `slot`
    /// there (the creation under way, which the caller's thread knows). Falls back to the
    /// current thread if no thread can be made.
    @usableFromInline
    static func run<Result>(
        carrying carried: UnsafeRawPointer?,
        in slot: ThreadSlot,
        _ body: () throws(GraftError) -> Result
    ) throws(GraftError) -> Result {
        var outcome: Swift.Result<Result, GraftError>?
        withoutActuallyEscaping(body) { body in
            let work = Work {
                outcome = slot.with(carried) {
                    do throws(GraftError) { return .success(try body()) } catch { return .failure(error) }
                }
            }
            if !runOnNewThread(work) {
                work.body()
            }
        }
        // `outcome` is always set: either the new thread ran `work` before it was joined, or
        // `work` ran here.
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw error
        case nil: return try body()
        }
    }

    /// Runs `work` on a new thread and joins it; `false` if the thread could not be created.
    ///
    /// The caller blocks in `pthread_join` until `work` finishes, so `work` and everything it
    /// captures outlive the thread, exactly as for a synchronous call.
    private static func runOnNewThread(_ work: Work) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return false }
        let context = Unmanaged.passRetained(work).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let created = pthread_create(
            &thread,
            &attributes,
            { context in
                #if canImport(Darwin)
                let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
                #else
                guard let context else { return nil }
                let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
                #endif
                work.body()
                return nil
            },
            context
        )
        guard created == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return false
        }
        #if canImport(Darwin)
        guard let thread else { return false }
        #endif
        pthread_join(thread, nil)
        return true
    }
}
