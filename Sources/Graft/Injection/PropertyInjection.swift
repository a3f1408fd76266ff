/// An `@Injected` property, as ``Resolver/injectProperties(into:)`` and
/// ``Resolver/resolveProperties(of:)`` find it by reflection.
protocol InjectableProperty {
    /// The type the property holds.
    static var valueType: Any.Type { get }

    /// Makes the property resolve from `resolver`.
    func bind(to resolver: any Resolver)

    /// Resolves the property now and keeps its value, unless it has one.
    func resolveNow() throws(GraftError)
}

extension Resolver {
    /// Binds every `@Injected` property of `object` to this resolver.
    ///
    /// ```swift
    /// let timer = LapTimer()
    /// container.injectProperties(into: timer)
    /// ```
    ///
    /// Properties of superclasses are bound too. Nothing resolves until a property is read; use
    /// ``resolveProperties(of:)`` to resolve them now and handle what fails as a thrown error.
    ///
    /// - Parameter object: An object with `@Injected` properties.
    /// - Returns: How many properties were bound.
    @discardableResult
    public func injectProperties(into object: AnyObject) -> Int {
        let properties = InjectableProperties(of: object)
        for (_, property) in properties.all {
            property.bind(to: self)
        }
        return properties.all.count
    }

    /// Binds every `@Injected` property of `object` to this resolver and resolves each now, so
    /// that what cannot be resolved is a thrown error here rather than a stop on first read.
    ///
    /// Reading an `@Injected` property that cannot be resolved stops the program, since a
    /// property's getter cannot throw. Objects that something else constructs are often handed
    /// over at one known point (a framework's callback, a test's set-up): calling this there
    /// moves every such failure to a `try` you can handle, and afterwards each property returns
    /// the value resolved here, without resolving again.
    ///
    /// ```swift
    /// let timer = LapTimer()                       // made by someone else
    /// do {
    ///     try container.resolveProperties(of: timer)
    /// } catch {
    ///     log.error("\(error)")                    // names LapTimer.clock and what failed
    /// }
    /// timer.clock.start()                          // resolved above: cannot stop the program
    /// ```
    ///
    /// Properties of superclasses are included. Every property is bound before the first one
    /// resolves, in declaration order, so when one fails the ones after it are still bound and
    /// resolve on first read. A property that already has a value (assigned, or resolved
    /// before) keeps it. Services with an `async` factory cannot be resolved here: they throw
    /// ``GraftError/Code/needsAwait``, as any synchronous resolve of them does.
    ///
    /// - Parameter object: An object with `@Injected` properties.
    /// - Returns: How many properties were resolved.
    /// - Throws: ``GraftError`` for the first property that cannot be resolved, with the code
    ///   of the failure (``GraftError/Code/notRegistered``, ``GraftError/Code/factoryFailed``,
    ///   ``GraftError/Code/closed``, …) and a summary naming the object's type, the property and
    ///   its type, followed by what failed.
    @discardableResult
    public func resolveProperties(of object: AnyObject) throws(GraftError) -> Int {
        let properties = InjectableProperties(of: object)
        for (_, property) in properties.all {
            property.bind(to: self)
        }
        for (label, property) in properties.all {
            do {
                try property.resolveNow()
            } catch {
                throw properties.failure(error, resolving: label, of: type(of: property).valueType)
            }
        }
        return properties.all.count
    }
}

/// The `@Injected` properties of one object, its superclasses' included, found by reflection.
private struct InjectableProperties {
    /// The object's type, as the messages name it.
    let owner: String
    /// Each property's name and wrapper, in declaration order, subclass first.
    let all: [(label: String, property: any InjectableProperty)]

    init(of object: AnyObject) {
        owner = String(describing: type(of: object))
        var found: [(label: String, property: any InjectableProperty)] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any InjectableProperty {
                    // A wrapped property's storage is named `_name`.
                    let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? "?"
                    found.append((label, property))
                }
            }
            mirror = current.superclassMirror
        }
        all = found
    }

    /// `error`, resolving the property `label` of type `valueType`, told as that property's.
    func failure(_ error: GraftError, resolving label: String, of valueType: Any.Type) -> GraftError {
        GraftError(
            error.code,
            "cannot inject \(owner).\(label) (\(valueType)): \(error.summary)",
            service: error.service,
            path: error.path,
            hints: error.hints,
            underlyingError: error.underlyingError,
            problems: error.problems
        )
    }
}
