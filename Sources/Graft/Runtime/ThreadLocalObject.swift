#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// One object per thread, made the first time the thread asks and released when it exits:
/// what the engine keeps from one resolve to the next on a thread, with no lock and nothing
/// another thread touches.
///
/// Not generic: code that is not specialized would look up run-time types on every call.
final class ThreadLocalObject: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> AnyObject

    init(make: @escaping @Sendable () -> AnyObject) {
        var key = pthread_key_t()
        // Fails only when the process has used up its thread-specific keys; Graft makes two.
        pthread_key_create(&key, releaseThreadLocalObject)
        self.key = key
        self.make = make
    }

    /// This thread's object, unretained: the thread's slot keeps it until the thread exits, so
    /// a caller on this thread may borrow it for as long as its own call lasts.
    var object: Unmanaged<AnyObject> {
        if let pointer = pthread_getspecific(key) { return Unmanaged.fromOpaque(pointer) }
        let object = Unmanaged.passRetained(make())
        pthread_setspecific(key, object.toOpaque())
        return object
    }
}

/// The destructor of a ``ThreadLocalObject``'s key: balances the retain of `object`.
#if canImport(Darwin)
private func releaseThreadLocalObject(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}
#else
private func releaseThreadLocalObject(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}
#endif
