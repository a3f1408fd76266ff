/// One construction under way: what a recipe makes its instance from, and where it puts it.
///
/// The engine sets one up on its own stack for each instance it makes. A recipe (see
/// ``Recipe``) asks it for the next autowired parameter or for the resolver a closure factory
/// receives, and hands its instance over with ``deliver(_:)``. Recipes never reach the engine any
/// other way, so registrations stay descriptions.
///
/// Soundness (the fence's invariant, see `Fence.swift`): `output` is memory the engine reserved
/// for exactly the registration's own service type, and the recipe that writes it was made by
/// the `register` call that also made the registration's key from that same type. The engine
/// checks the key against the type it reads back before it reads (``ConstructionOutput``).
@usableFromInline
struct Construction {
    /// The engine, which keeps itself alive for the whole construction: borrowed, so asking it
    /// for a parameter changes no reference count that other threads share.
    @usableFromInline let site: Unretained<ConstructionSite>
    /// The registration being made, as the engine numbers it.
    @usableFromInline let node: Int
    /// Where the instance goes.
    @usableFromInline let output: UnsafeMutableRawPointer
    /// The registration's prepared links to its plain dependencies; opaque to recipes.
    @usableFromInline let links: UnsafeRawPointer?
    /// What the engine needs to resolve parameters as it goes; opaque to recipes.
    @usableFromInline let request: UnsafeMutableRawPointer?
    /// The engine's cells of instances that exist already (a container's singletons, see
    /// ``LazyCells/baseAddress``), numbered as the targets of ``links`` are: a plain dependency
    /// found there is read directly, without asking the engine. `nil` when there are none.
    @usableFromInline let existing: UnsafeRawPointer?
    /// What only some constructions are given (runtime arguments, prefetched parameters), on
    /// the engine's stack; `nil` when there is neither. Behind a pointer, so that a
    /// construction holds no reference and copying or ending one costs nothing.
    @usableFromInline let inputs: UnsafePointer<ConstructionInputs>?
    /// Parameters the engine resolved ahead of time (the async path), in order.
    @inlinable var prefetched: [(any Sendable)?]? { inputs?.pointee.prefetched }
    /// The runtime arguments the caller passed, checked against the registration's types
    /// before the construction starts; `nil` when the resolve passed none.
    @inlinable var arguments: [any Sendable]? { inputs?.pointee.arguments }
    /// The next runtime argument, for a closure factory that takes them.
    @inlinable
    mutating func nextArgument<Argument: Sendable>(_ type: Argument.Type) throws(GraftError) -> Argument {
        defer { argumentPosition += 1 }
        return try argument(argumentPosition, as: type)
    }

    /// Runtime argument number `index`, typed.
    @inlinable
    func argument<Argument: Sendable>(_ index: Int, as type: Argument.Type) throws(GraftError) -> Argument {
        guard let arguments, arguments.indices.contains(index), let value = arguments[index] as? Argument else {
            throw site.with { $0.missingArguments(for: self) }
        }
        return value
    }

    /// The resolver a closure factory receives: a class the engine lends for the construction
    /// and keeps alive until it returns, so it is held unretained, and copying a construction
    /// copies two words instead of an existential through its type's value witnesses.
    @usableFromInline unowned(unsafe) let frame: (any Resolver & AnyObject)?
    /// Who disposes the instance when its registered type is disposable: the engine's scope
    /// object, opaque here; `nil` when nobody does. The resolve that runs the construction
    /// keeps it alive.
    @usableFromInline let owner: Unretained<AnyObject>?
    /// The next parameter's position.
    @usableFromInline var position = 0
    /// The next runtime argument's position, for closure factories.
    @usableFromInline var argumentPosition = 0

    @usableFromInline
    init(
        site: ConstructionSite,
        node: Int,
        output: UnsafeMutableRawPointer,
        links: UnsafeRawPointer? = nil,
        request: UnsafeMutableRawPointer? = nil,
        inputs: UnsafePointer<ConstructionInputs>? = nil,
        frame: (any Resolver & AnyObject)? = nil,
        owner: Unretained<AnyObject>? = nil,
        existing: UnsafeRawPointer? = nil
    ) {
        self.existing = existing
        // The engine running the construction is alive until it returns.
        self.site = Unretained(site)
        self.node = node
        self.output = output
        self.links = links
        self.request = request
        self.inputs = inputs
        self.frame = frame
        self.owner = owner
    }

    /// The next autowired parameter, typed.
    ///
    /// A plain dependency whose instance exists already (a singleton made before) is read
    /// straight from the engine's cells: no call into the engine, and no run-time question to
    /// `Parameter`'s type (a recipe over a parameter pack calls this unspecialized).
    @inlinable
    mutating func next<Parameter: Sendable>(_ type: Parameter.Type) throws(GraftError) -> Parameter {
        if existing != nil, let address = existingParameter() {
            position += 1
            // The cell of a link's target holds an instance made as the target's type, which is
            // the parameter's: links join a parameter to the registration of its type.
            return InstanceCell.storedValue(
                at: address,
                as: Parameter.self,
                storageClass: site.with { $0.storageClass }
            )
        }
        defer { position += 1 }
        do {
            return try site.with { try $0.parameter(type, of: &self) }
        } catch {
            throw GraftError.wrapping(error)
        }
    }

    /// The address of the existing instance the next parameter links to, if the link is plain
    /// and its target's cell is filled; `nil` otherwise, and always for a construction given
    /// prefetched parameters or runtime arguments, which the engine answers itself.
    @usableFromInline @inline(__always)
    func existingParameter() -> UnsafeRawPointer? {
        guard inputs == nil, let links, let existing else { return nil }
        let target = links.assumingMemoryBound(to: Int.self)[position]
        guard target >= 0 else { return nil }
        return LazyCells<AnyObject>.address(in: existing, target)
    }

    /// The resolver a closure factory receives.
    @inlinable
    func resolver() throws(GraftError) -> any Resolver {
        guard let frame else { throw GraftError(.factoryFailed, "internal: a closure recipe ran without a resolver") }
        return frame
    }

    /// Hands over the instance.
    ///
    /// Every `deliver` throws, so that a recipe's text is the same whichever one its static
    /// type picks; this one never does.
    @inlinable
    mutating func deliver<Service: Sendable>(_ value: Service) throws(GraftError) {
        output.initializeMemory(as: Service.self, to: value)
    }

    /// Hands over an instance its owner disposes with `dispose()`.
    @inlinable
    mutating func deliver<Service: Disposable>(_ value: Service) throws(GraftError) {
        // Adopted first: if the owner has closed meanwhile, nothing is left in the output.
        try adopt(.sync(value))
        output.initializeMemory(as: Service.self, to: value)
    }

    /// Hands over an instance, asking the instance itself whether its owner disposes it: one
    /// dynamic cast per instance, for registrations whose static type may not say.
    @inlinable
    mutating func deliverAnyDisposable<Service: Sendable>(_ value: Service) throws(GraftError) {
        if let disposable = value as? any Disposable {
            try adopt(.sync(disposable))
        } else if let disposable = value as? any AsyncDisposable {
            try adopt(.async(disposable))
        }
        output.initializeMemory(as: Service.self, to: value)
    }

    /// Hands `disposal` to the owner, through the borrowed engine.
    @usableFromInline
    func adopt(_ disposal: Disposal) throws(GraftError) {
        do {
            try site.with { try $0.adopt(disposal, for: self) }
        } catch {
            throw GraftError.wrapping(error)
        }
    }

    /// Hands over an instance its owner disposes with `await dispose()`.
    @inlinable
    mutating func deliver<Service: AsyncDisposable>(_ value: Service) throws(GraftError) {
        try adopt(.async(value))
        output.initializeMemory(as: Service.self, to: value)
    }
}

/// What only some constructions are given; see ``Construction/inputs``.
@usableFromInline
struct ConstructionInputs {
    /// Parameters the engine resolved ahead of time (the async path), in order.
    @usableFromInline let prefetched: [(any Sendable)?]?
    /// The runtime arguments the caller passed.
    @usableFromInline let arguments: [any Sendable]?

    init(prefetched: [(any Sendable)?]?, arguments: [any Sendable]?) {
        self.prefetched = prefetched
        self.arguments = arguments
    }

    /// Runs `body` with these inputs' address, or with `nil` when there are none.
    @inline(__always)
    static func with<Result>(
        prefetched: [(any Sendable)?]?,
        arguments: [any Sendable]?,
        _ body: (UnsafePointer<ConstructionInputs>?) throws(GraftError) -> Result
    ) throws(GraftError) -> Result {
        guard prefetched != nil || arguments != nil else { return try body(nil) }
        var inputs = ConstructionInputs(prefetched: prefetched, arguments: arguments)
        return try withUnsafePointer(to: &inputs) { pointer throws(GraftError) in try body(pointer) }
    }

    /// Runs `body` with inputs on the heap, for a construction that awaits (its frame may move
    /// to another thread), or with `nil` when there are none; they are freed when `body` returns.
    static func onHeap<Result>(
        prefetched: [(any Sendable)?]?,
        arguments: [any Sendable]?,
        _ body: (UnsafePointer<ConstructionInputs>?) async throws(GraftError) -> Result
    ) async throws(GraftError) -> Result {
        guard prefetched != nil || arguments != nil else { return try await body(nil) }
        let inputs = UnsafeMutablePointer<ConstructionInputs>.allocate(capacity: 1)
        inputs.initialize(to: ConstructionInputs(prefetched: prefetched, arguments: arguments))
        defer { inputs.deinitialize(count: 1).deallocate() }
        return try await body(inputs)
    }
}

/// The engine as a recipe sees it: it supplies autowired parameters. The engine subclasses it.
///
/// A class, not a protocol, so that a ``Construction`` can hold it as an `Unretained` and borrow
/// it: a protocol existential cannot be borrowed that way, and calling through an unowned
/// reference retains and releases it, a write to a cache line every resolving thread shares.
///
/// `@unchecked Sendable` is sound: this class has only a `let` of a `Sendable` type, and its one
/// subclass (`ContainerCore`) has only `let` properties of `Sendable` types.
@usableFromInline
class ConstructionSite: @unchecked Sendable {
    /// The class of the boxes that hold values which are not class instances (see
    /// ``InstanceCell``), for reading existing instances in ``Construction/next(_:)``: looked up
    /// once per engine, not once per construction or dependency, since its metadata is made at
    /// run time and each look-up is a call, and kept here rather than in each construction,
    /// which every resolve sets up.
    @usableFromInline let storageClass: ObjectIdentifier

    @usableFromInline
    init() {
        storageClass = InstanceCell.storageClass
    }

    /// The parameter at `construction.position`, typed.
    @usableFromInline
    func parameter<Parameter: Sendable>(
        _ type: Parameter.Type,
        of construction: inout Construction
    ) throws(GraftError) -> Parameter {
        throw Self.abstract
    }

    /// Hands a new disposable instance to `construction.owner`.
    @usableFromInline
    func adopt(_ disposal: Disposal, for construction: borrowing Construction) throws(GraftError) {
        throw Self.abstract
    }

    /// The error for a construction that needs runtime arguments it was not given.
    @usableFromInline
    func missingArguments(for construction: borrowing Construction) -> GraftError {
        Self.abstract
    }

    private static var abstract: GraftError {
        GraftError(.factoryFailed, "internal: a construction ran without an engine")
    }
}

/// Memory for one instance of a service while a recipe fills it.
@usableFromInline
enum ConstructionOutput {
    /// The memory a `fill` is given, handed on to the construction that delivers into it:
    /// valid for that `fill` call only, which is as long as the construction runs.
    struct Destination {
        fileprivate let address: UnsafeMutableRawPointer

        /// The memory `make` lent the `fill` it calls.
        init(lentTo address: UnsafeMutableRawPointer) {
            self.address = address
        }
    }

    /// Runs `fill` with memory for one `Service`, which `fill` must initialize unless it
    /// throws, and returns the instance.
    ///
    /// `scratch` is the caller's, on its stack: a construction delivers its instance as its very
    /// last step, and the instance is moved out right after. Larger types use the heap.
    /// (`withUnsafeTemporaryAllocation` would look up a `Result` type at run time on every call
    /// in code that is not specialized.)
    ///
    /// `expected` is the identity of the type the registration was made for; it must be
    /// `Service`, or the memory would be read as the wrong type. The caller found the
    /// registration under `Service`'s key, so a mismatch is a bug in Graft, reported as an error.
    @inline(__always)
    static func make<Service: Sendable>(
        _ type: Service.Type,
        expected: ObjectIdentifier,
        scratch: inout ConstructionScratch,
        _ fill: (UnsafeMutableRawPointer) throws(GraftError) -> Void
    ) throws(GraftError) -> Service {
        try check(Service.self, expected)
        guard ConstructionScratch.fits(Service.self) else {
            let pointer = UnsafeMutableRawPointer.allocate(
                byteCount: MemoryLayout<Service>.size,
                alignment: MemoryLayout<Service>.alignment
            )
            defer { pointer.deallocate() }
            try fill(pointer)
            return pointer.assumingMemoryBound(to: Service.self).move()
        }
        // The scratch's address for each call, as an argument: `withUnsafeMutablePointer` with a
        // closure returning `Service` would be called through its generic entry point, in code
        // that is not specialized.
        try fill(&scratch)
        return moveOut(&scratch, as: Service.self)
    }

    /// The instance a recipe delivered to `memory`, moved out.
    @inline(__always)
    private static func moveOut<Service>(_ memory: UnsafeMutableRawPointer, as type: Service.Type) -> Service {
        memory.assumingMemoryBound(to: Service.self).move()
    }

    /// ``make(_:expected:scratch:_:)`` for a fill that awaits: the memory is on the heap, since
    /// another construction may run on the same resolve while this one is suspended.
    static func make<Service: Sendable>(
        _ type: Service.Type,
        expected: ObjectIdentifier,
        _ fill: (UnsafeMutableRawPointer) async throws(GraftError) -> Void
    ) async throws(GraftError) -> Service {
        try check(Service.self, expected)
        let pointer = UnsafeMutablePointer<Service>.allocate(capacity: 1)
        defer { pointer.deallocate() }
        try await fill(UnsafeMutableRawPointer(pointer))
        return pointer.move()
    }

    @usableFromInline
    static func check<Service>(_ type: Service.Type, _ expected: ObjectIdentifier) throws(GraftError) {
        guard expected == ObjectIdentifier(Service.self) else {
            throw GraftError(.typeMismatch, "internal: a recipe for another type was asked for a \(Service.self)")
        }
    }
}

/// Room for one instance while a recipe hands it to the engine: 64 bytes, word-aligned, which
/// holds a class reference, an existential or a small struct. Each construction has its own, on
/// its stack.
@usableFromInline
struct ConstructionScratch: Sendable {
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
        0, 0, 0, 0, 0, 0, 0, 0
    )

    @inlinable
    init() {}

    /// Inlined into the engine's constructions, which are not specialized: as a call of its own
    /// it costs more than the two comparisons it makes.
    @inlinable @inline(__always)
    static func fits<Service>(_ type: Service.Type) -> Bool {
        MemoryLayout<Service>.size <= MemoryLayout<Self>.size
            && MemoryLayout<Service>.alignment <= MemoryLayout<Self>.alignment
    }
}

// MARK: What the engine reads back of a construction it set up

extension Construction {
    /// The engine running this construction, as its own type: the site is only ever the engine
    /// object that set the construction up, and the engine has one type (`ContainerCore`, the
    /// one subclass of ``ConstructionSite``).
    @inline(__always)
    func site<Site: ConstructionSite>(as type: Site.Type) -> Site {
        unsafeDowncast(site.object, to: type)
    }

    /// The object that disposes the instance, as the engine's scope type: `owner` is only ever
    /// set, by the engine, to one of its scopes.
    @inline(__always)
    func owner<Owner: AnyObject>(as type: Owner.Type) -> Owner? {
        owner.map { unsafeDowncast($0.object, to: type) }
    }

    /// Runs `body` with the request the engine lent this construction: the resolve state of the
    /// resolve that runs it, lent for exactly as long as the construction runs.
    ///
    /// Only for a construction that asks the engine for what it needs (an autowired parameter
    /// it did not prefetch, the scope a recipe Graft adds runs in), which the engine sets up
    /// synchronously with its state lent (`ContainerCore.run`); a construction that awaits is
    /// given its parameters prefetched and asks for none. The result comes back as it is, not
    /// in an optional: in code that is not specialized, an optional of a generic type is
    /// looked up at run time on every call.
    @inline(__always)
    func withRequest<Request, Result, Failure: Error>(
        as type: Request.Type,
        _ body: (inout Request) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(&request.unsafelyUnwrapped.assumingMemoryBound(to: type).pointee)
    }

    /// The index of the entry parameter `index` links to when it is a plain dependency, `-1`
    /// when it is not, or `nil` when the construction was given no links.
    @inline(__always)
    func plainLink(at index: Int) -> Int? {
        links.map { $0.assumingMemoryBound(to: Int.self)[index] }
    }
}

// MARK: How the engine sets a synchronous construction up

extension Construction {
    /// What the engine lends a synchronous construction for exactly its run: its resolve state
    /// (what ``withRequest(as:_:)`` reads back) and its registration's plain targets (see
    /// `Entry.plainTargets`), each by address, valid only inside ``lending(_:links:_:)``.
    struct Lent {
        fileprivate let request: UnsafeMutableRawPointer
        fileprivate let links: UnsafeRawPointer?
    }

    /// Runs `body` with `request` and `links` lent by address for exactly this call, for the
    /// construction `body` sets up with ``init(site:node:output:lent:inputs:frame:owner:existing:)``.
    @inline(__always)
    static func lending<Request>(
        _ request: inout Request,
        links: borrowing [Int],
        _ body: (Lent) throws(GraftError) -> Void
    ) throws(GraftError) {
        try links.withUnsafeBufferPointer { (links) throws(GraftError) in
            try withUnsafeMutablePointer(to: &request) { (request) throws(GraftError) in
                try body(Lent(request: UnsafeMutableRawPointer(request), links: UnsafeRawPointer(links.baseAddress)))
            }
        }
    }

    /// A synchronous construction of registration `node` by `site`, delivering to `output`,
    /// with what ``lending(_:links:_:)`` lent.
    ///
    /// - Parameter existing: The engine's cells of existing instances, or `nil`.
    @inline(__always)
    init(
        site: ConstructionSite,
        node: Int,
        output: ConstructionOutput.Destination,
        lent: Lent,
        inputs: UnsafePointer<ConstructionInputs>?,
        frame: (any Resolver & AnyObject)?,
        owner: Unretained<AnyObject>?,
        existing: UnsafeRawPointer?
    ) {
        self.init(
            site: site,
            node: node,
            output: output.address,
            links: lent.links,
            request: lent.request,
            inputs: inputs,
            frame: frame,
            owner: owner,
            existing: existing
        )
    }
}
